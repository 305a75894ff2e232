#!/usr/bin/env bash
# The Apple-shape compile check: type-checks, on Linux, every file meant to compile on Apple platforms against
# declaration-only `WebKit`, `UIKit` and `SwiftUI` modules (this folder) that follow Apple's SDK declarations.
#
# With a module named WebKit on the include path, `#if canImport(WebKit)` is true, so the Apple branch of each
# file is what gets checked; `os(Linux)` is rewritten to false in the checked copies for the same reason.
# Two variants: the Xcode 16 SDK shape (WebKit's delegate protocols are @MainActor) and the Xcode 15 shape (the
# same protocols without isolation). Nothing here has run on a Mac: the declarations follow Apple's headers and
# documentation pages named beside each of them.
#
# Usage: scripts/apple-shape/check.sh              check everything against both variants
#        scripts/apple-shape/check.sh --self-test  prove that seeded mismatches fail the check
# Exit: 0 every file type-checks, 1 a file does not (compiler errors name the original files), 3 environment
# (no swiftc, or a platform-neutral module of the package's could not be built).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
swift="${SWIFT:-swift}"
swiftc="${SWIFTC:-swiftc}"
work="$root/.build/apple-shape"
# SwiftPM's -package-name: the package's identity (the folder's name, lowercased) as a C identifier
# (a clone in web-bridge/ is web_bridge).
package_name="$(basename "$root" | tr '[:upper:]' '[:lower:]' | sed -E 's/[^a-z0-9_]/_/g; s/^([0-9])/_\1/')"

command -v "$swiftc" >/dev/null || { echo "apple-shape: $swiftc is not on PATH. Remedy: install the Swift toolchain" >&2; exit 3; }

# The files meant to compile on Apple platforms, relative to the package root.
bridge_testing=("$root"/Sources/BridgeTesting/*.swift)
shared_tests=(
    Tests/BridgeTestingTests/BridgeContractTests.swift
    Tests/BridgeTestingTests/BridgePageIntegrationTests.swift
    # Xcode's FixtureBundle (the package's uses SwiftPM's Bundle.module): the one the simulator compiles.
    Examples/Client/ClientTests/FixtureBundle.swift
)
client_app=("$root"/Examples/Client/Client/*.swift)

package_flags=(-swift-version 6 -enable-upcoming-feature ExistentialAny -strict-concurrency=complete)
# Examples/Client/Client.xcodeproj: SWIFT_VERSION = 6.0, no upcoming features.
client_flags=(-swift-version 6)

# BridgeTesting's dependencies whose interface is the same on every platform (BridgeContract: Foundation only;
# TerminalEscape and SeededRandom: the standard library only; LoopbackServer: POSIX sockets behind one public
# API): built normally, by SwiftPM.
platform_neutral=(BridgeContract TerminalEscape SeededRandom LoopbackServer)
prepare_contract() {
    local target bin
    bin="$("$swift" build --package-path "$root" --show-bin-path)"
    mkdir -p "$work/contract"
    for target in "${platform_neutral[@]}"; do
        if ! "$swift" build --package-path "$root" --target "$target" >"$work/contract-build.log" 2>&1; then
            cat "$work/contract-build.log" >&2
            echo "apple-shape: could not build $target. Remedy: fix the build above (swift build --target $target)" >&2
            exit 3
        fi
        cp "$bin/Modules/$target.swiftmodule" "$work/contract/"
    done
}

# Copies `files` under $2 keeping their package-relative paths, with os(Linux) made false.
stage() {
    local destination="$1"
    shift
    local file relative
    for file in "$@"; do
        relative="${file#"$root"/}"
        mkdir -p "$destination/$(dirname "$relative")"
        sed 's/os(Linux)/APPLE_SHAPE_NEVER_LINUX/g' "$root/$relative" >"$destination/$relative"
    done
}

# Builds the shim modules for one variant into $1 from the declarations in $2.
build_shims() {
    local modules="$1" declarations="$2"
    mkdir -p "$modules"
    "$swiftc" -swift-version 6 -parse-as-library -emit-module -module-name UIKit \
        "$declarations/UIKit.swift" -o "$modules/UIKit.swiftmodule"
    "$swiftc" -swift-version 6 -parse-as-library -emit-module -module-name WebKit -I "$modules" \
        "$declarations/WebKit.swift" -o "$modules/WebKit.swiftmodule"
    "$swiftc" -swift-version 6 -parse-as-library -emit-module -module-name SwiftUI -I "$modules" \
        "$declarations/SwiftUI.swift" -o "$modules/SwiftUI.swiftmodule"
}

# Runs swiftc, showing errors against the original files rather than the staged copies.
compile() {
    local staged="$1"
    shift
    local output status=0
    output="$("$swiftc" "$@" 2>&1)" || status=$?
    if [ -n "$output" ]; then printf '%s\n' "$output" | sed "s|$staged/||g"; fi
    return "$status"
}

# Checks every Apple-platform file against one variant; prints one line per part.
check_variant() {
    local name="$1" declarations="$2"
    local modules="$work/$name/modules" staged="$work/$name/src" failed=0
    rm -rf "$work/$name"
    build_shims "$modules" "$declarations"
    cp "$work/contract/"*.swiftmodule "$modules/"
    stage "$staged" "${bridge_testing[@]}" "${shared_tests[@]/#/$root/}" "${client_app[@]}"
    # SwiftPM generates Bundle.module for a target with resources; this stands in for it when type-checking.
    printf 'import Foundation\nextension Foundation.Bundle { static var module: Bundle { fatalError() } }\n' \
        >"$staged/resource_bundle_accessor.swift"

    local sources=("${bridge_testing[@]/#$root/$staged}")
    # SwiftPM names the package for `package` access after the root folder, lowercased (the name BridgeContract's
    # module was built with); the shared tests get another name, as in the Xcode project, which links the
    # package's products from outside and sees only their public API.
    if compile "$staged" "${package_flags[@]}" -package-name "$package_name" -parse-as-library -emit-module \
        -module-name BridgeTesting \
        -I "$modules" "${sources[@]}" "$staged/resource_bundle_accessor.swift" \
        -o "$modules/BridgeTesting.swiftmodule"; then
        echo "ok $name: Sources/BridgeTesting"
    else
        echo "FAIL $name: Sources/BridgeTesting does not compile against Apple's declarations (errors above)"
        failed=1
    fi
    if [ "$failed" = 0 ]; then
        if compile "$staged" "${package_flags[@]}" -package-name ClientTests -parse-as-library -typecheck \
            -I "$modules" \
            "${shared_tests[@]/#/$staged/}"; then
            echo "ok $name: the shared test files (${shared_tests[*]})"
        else
            echo "FAIL $name: the shared test files do not compile against Apple's declarations (errors above)"
            failed=1
        fi
    else
        echo "not run $name: the shared test files need Sources/BridgeTesting to compile first"
    fi
    if compile "$staged" "${client_flags[@]}" -parse-as-library -typecheck -I "$modules" \
        "${client_app[@]/#$root/$staged}"; then
        echo "ok $name: Examples/Client/Client"
    else
        echo "FAIL $name: Examples/Client/Client does not compile against Apple's declarations (errors above)"
        failed=1
    fi
    return "$failed"
}

# The Xcode 15 shape: the same declarations without the protocols' @MainActor (the lines marked for Xcode 16).
xcode15_declarations() {
    local destination="$work/xcode15-declarations"
    rm -rf "$destination"
    mkdir -p "$destination"
    cp "$here/UIKit.swift" "$here/SwiftUI.swift" "$destination/"
    grep -v '// Xcode 16 SDK$' "$here/WebKit.swift" >"$destination/WebKit.swift"
    if [ "$(grep -c '// Xcode 16 SDK$' "$here/WebKit.swift")" -lt 4 ]; then
        echo "apple-shape: the Xcode 16 markers are missing from WebKit.swift; the Xcode 15 variant would be the same" >&2
        exit 1
    fi
    echo "$destination"
}

# Each seeded file must fail against its variant (`// variant: xcode15`, else xcode16) with the expected error.
self_test() {
    local failed=0 seed expected variant modules output
    rm -rf "$work/self-test"
    build_shims "$work/self-test/xcode16" "$here"
    build_shims "$work/self-test/xcode15" "$(xcode15_declarations)"
    for seed in "$here"/seeded/*.swift; do
        expected="$(sed -n 's|^// expect: ||p' "$seed")"
        variant="$(sed -n 's|^// variant: ||p' "$seed")"
        modules="$work/self-test/${variant:-xcode16}"
        if output="$("$swiftc" -swift-version 6 -parse-as-library -typecheck -I "$modules" "$seed" 2>&1)"; then
            echo "FAIL self-test: ${seed#"$root"/} compiled against ${variant:-xcode16}, but Apple's SDK rejects it"
            failed=1
        elif ! grep -qF -- "$expected" <<<"$output"; then
            printf '%s\n' "$output"
            echo "FAIL self-test: ${seed#"$root"/} failed without the expected error: $expected"
            failed=1
        else
            echo "ok self-test: ${seed#"$root"/} is rejected (${variant:-xcode16}): $expected"
        fi
    done
    return "$failed"
}

mkdir -p "$work"
if [ "${1:-}" = "--self-test" ]; then
    self_test
    exit $?
elif [ -n "${1:-}" ]; then
    echo "usage: scripts/apple-shape/check.sh [--self-test]" >&2
    exit 2
fi
prepare_contract
status=0
check_variant xcode16 "$here" || status=1
check_variant xcode15 "$(xcode15_declarations)" || status=1
exit "$status"
