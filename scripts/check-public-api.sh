#!/usr/bin/env bash
# The public API on one screen: the public types of BridgeContract, BridgeTesting and BridgeAssertions must be
# exactly the types Docs/API.md lists in those sections' tables, and at most $bound of them (nested types count).
# Exit 0 when both hold; 1 naming each difference and the remedy.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bound="${PUBLIC_TYPE_BOUND:-34}"
modules=(Sources/BridgeContract Sources/BridgeTesting Sources/BridgeAssertions)
cd "$root"

# Each public declaration, as the bound counts them (a type declared once per platform counts twice).
declared="$(grep -rhoE '^\s*public (final |indirect )?(struct|class|enum|protocol|actor|typealias) [A-Za-z_]+' \
    "${modules[@]}" | awk '{print $NF}')"
count="$(printf '%s\n' "$declared" | grep -c .)"
# The type names in the first column of the library sections' tables (`Outer.Inner` names Inner).
documented="$(awk '/^## /{keep = /^## (BridgeAssertions|BridgeTesting|BridgeContract):/} keep && /^\| `/' Docs/API.md |
    cut -d'|' -f2 | grep -oE '`[A-Z][A-Za-z.]*`' | tr -d '`' | sed 's/.*\.//')"

status=0
missing="$(comm -23 <(printf '%s\n' "$declared" | sort -u) <(printf '%s\n' "$documented" | sort -u))"
extra="$(comm -13 <(printf '%s\n' "$declared" | sort -u) <(printf '%s\n' "$documented" | sort -u))"
for name in $missing; do
    echo "public API: $name is public in ${modules[*]} but not in Docs/API.md. Remedy: list it there, or make it package" >&2
    status=1
done
for name in $extra; do
    echo "public API: Docs/API.md lists $name, which is not a public type. Remedy: remove it from the table, or make it public" >&2
    status=1
done
if [ "$count" -gt "$bound" ]; then
    echo "public API: $count public types in ${modules[*]}, more than $bound. Remedy: make what only the tool uses package" >&2
    status=1
fi
[ "$status" = 0 ] && echo "public API: $count public types, each in Docs/API.md (at most $bound)"
exit "$status"
