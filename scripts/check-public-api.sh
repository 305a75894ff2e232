#!/usr/bin/env bash
# The public API on one screen. For each of BridgeContract, BridgeTesting and BridgeAssertions:
# - its public types (nested ones by their full name, `ContractError.Code`) are exactly the types that
#   Docs/API.md's section for that module lists in its tables' first column;
# - each of its public top-level functions is named there too (`verifyBridge(…)`);
# - the count in Docs/API.md's "Public types per module" table is the count the code has;
# and all three together hold at most $bound public types, counted with the issue's grep (a type declared once
# per platform counts twice). A public type declared in a form that grep does not see (an attribute or a modifier
# before `public`) is refused, so the count cannot be dodged by formatting.
# Exit 0 when all of it holds; 1 naming each difference and the remedy.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bound="${PUBLIC_TYPE_BOUND:-34}"
api="${PUBLIC_API_DOC:-Docs/API.md}"
modules=(BridgeContract BridgeTesting BridgeAssertions)
cd "$root"
status=0
fail() {
    echo "public API: $*" >&2
    status=1
}

# The bound, exactly as the issue counts it.
count_regex='^\s*public (final |indirect )?(struct|class|enum|protocol|actor|typealias) [A-Za-z_]+'
count="$( (grep -rhoE "$count_regex" "${modules[@]/#/Sources/}" || true) | wc -l)"
if [ "$count" -gt "$bound" ]; then
    fail "$count public types in ${modules[*]}, more than $bound. Remedy: make what only the tool uses package"
fi

# Every public type declaration in any form; one the count's grep misses is a dodge.
any_regex='^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*((public|open|final|indirect|nonisolated)\s+)+(struct|class|enum|protocol|actor|typealias)\s+[A-Za-z_]+'
while IFS= read -r line; do
    [ -z "$line" ] && continue
    text="${line#*:*:}"
    if [[ "$text" =~ (public|open) ]] && ! grep -qE "$count_regex" <<<"$text"; then
        fail "${line%%:*}: '$(sed -E 's/^\s+//' <<<"$text")' is a public type the count does not see." \
            "Remedy: write 'public' first (public final class X), as the count's grep reads it"
    fi
done < <(grep -rnE "$any_regex" "${modules[@]/#/Sources/}" || true)

# A module's public types by full name: a declaration's parents are the types and extensions around it, by
# indentation (swift-format's four spaces).
qualified_types() {
    local file
    for file in $(find "Sources/$1" -name '*.swift' | sort); do
        awk '
            {
                match($0, /^ */); depth = RLENGTH / 4
                if (match($0, /^ *((@[A-Za-z_]+(\([^)]*\))? +)*(public|package|internal|private|fileprivate|open|final|indirect|nonisolated) +)*(struct|class|enum|protocol|actor|extension|typealias) +[A-Za-z_][A-Za-z_0-9.]*/)) {
                    declaration = substr($0, RSTART, RLENGTH)
                    n = split(declaration, words, / +/)
                    name = words[n]
                    scope[depth] = name
                    if ($0 ~ /^[ \t]*public (final |indirect )?(struct|class|enum|protocol|actor|typealias) [A-Za-z_]/) {
                        full = ""
                        for (i = 0; i < depth; i++) if (i in scope) full = full scope[i] "."
                        print full name
                    }
                    for (i = depth + 1; i in scope; i++) delete scope[i]
                }
            }' "$file"
    done
}

# A module's section of Docs/API.md: the lines from "## Module:" to the next "## ".
section() { awk -v module="$1" '/^## /{keep = index($0, "## " module ":") == 1} keep' "$api"; }
# The names in the first column of a section's tables.
first_column() { grep -E '^\| `' | cut -d'|' -f2 | grep -oE '`[^`]+`' | tr -d '`'; }

for module in "${modules[@]}"; do
    if ! grep -q "^## $module:" "$api"; then
        fail "$api has no section '## $module: …'. Remedy: add one, with a table of the module's public API"
        continue
    fi
    declared="$(qualified_types "$module" | sort -u)"
    documented="$(section "$module" | first_column | grep -E '^[A-Z][A-Za-z0-9_.]*$' | sort -u || true)"
    for name in $(comm -23 <(printf '%s\n' "$declared") <(printf '%s\n' "$documented")); do
        fail "$name is a public type of $module but not in $api's $module section. Remedy: list it there, or make it package"
    done
    for name in $(comm -13 <(printf '%s\n' "$declared") <(printf '%s\n' "$documented")); do
        fail "$api's $module section lists $name, which is not a public type of $module. Remedy: remove it, or make it public"
    done
    functions="$( (grep -rhoE '^(@[A-Za-z_]+ )*public func [A-Za-z_]+' "Sources/$module" || true) | awk '{print $NF}' | sort -u)"
    named="$(section "$module" | first_column | grep -oE '^[a-z][A-Za-z0-9_]*\(' | tr -d '(' | sort -u || true)"
    for name in $(comm -23 <(printf '%s\n' "$functions") <(printf '%s\n' "$named")); do
        fail "$name(…) is a public function of $module but not in $api's $module section. Remedy: list it there, or make it package"
    done
    # The declarations as the bound counts them (a name declared twice counts twice).
    module_count="$( (grep -rhoE "$count_regex" "Sources/$module" || true) | wc -l)"
    stated="$(awk -F'|' -v module="$module" '$2 ~ "^ *" module " *$" {gsub(/ /, "", $3); print $3}' "$api")"
    if [ "$stated" != "$module_count" ]; then
        fail "$api's 'Public types per module' table says ${stated:-nothing} for $module; the code has $module_count." \
            "Remedy: write $module_count there"
    fi
done
stated_total="$(awk -F'|' '$2 ~ /^ *all three *$/ {gsub(/ /, "", $3); print $3}' "$api")"
if [ "$stated_total" != "$count" ]; then
    fail "$api's 'Public types per module' table says ${stated_total:-nothing} for all three; the code has $count." \
        "Remedy: write $count there"
fi
[ "$status" = 0 ] && echo "public API: $count public types (at most $bound), each in $api's section of its module"
exit "$status"
