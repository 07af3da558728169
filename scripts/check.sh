#!/usr/bin/env bash
# Re-checks the proofs: type-checks src/kernel, regenerates the prover artifacts from it,
# fails if a committed artifact was stale, lists the trusted elements, runs every installed
# Dafny (Debian's 2.3 with z3, and a Dafny 4) on every module, and fails unless each item is
# reported proven, every file under dafny/ and proofs/ was verified, and PROPERTIES.md agrees.
#   scripts/check.sh dafny   Dafny (Debian's Dafny 2.3 with z3, and Dafny 4 when installed)
#   scripts/check.sh lean    Lean 4 (not yet: no Lean backend exists)
#   scripts/check.sh all     both
# Extra arguments go to the checker: --only cutpoint,splice   --prover dafny23|dafny4   --allow-stale
set -uo pipefail
cd "$(dirname "$0")/.."
backend="${1:-}"
shift || true
toolchain=(node_modules/.bin/tsx src/toolchain/cli.ts)
# an installed package has no tsx: it runs the compiled translator (typescript must be installed)
[ -x "${toolchain[0]}" ] || toolchain=(node dist/toolchain/cli.js)
if [ "${toolchain[0]}" = node ] && [ ! -f dist/toolchain/cli.js ]; then
  echo "check.sh: node modules missing; run: npm install" >&2
  exit 3
fi
# the translator reads the kernel with TypeScript 5's compiler API (peer range >=5.7 <7): say so
# plainly when the TypeScript found beside an installed package is missing or another major
if [ "${toolchain[0]}" = node ]; then
  tsv=$(node -e 'try { console.log(require(require.resolve("typescript/package.json", { paths: [process.cwd()] })).version) } catch { console.log("") }')
  need="re-checking the proofs needs TypeScript 5.7 or later, below 7"
  if [ -z "$tsv" ]; then
    echo "check.sh: $need (none found): install it beside safecut: npm install -D typescript@5" >&2
    exit 3
  fi
  if ! node -e 'const [a, b] = process.argv[1].split(".").map(Number); process.exit(a === 5 && b >= 7 ? 0 : 1)' "$tsv"; then
    why="the translator reads the kernel with TypeScript 5's compiler API"
    [ "${tsv%%.*}" -ge 7 ] 2>/dev/null && why="$why, which TypeScript 7 does not offer"
    echo "check.sh: $need (found $tsv): $why; install it beside safecut: npm install -D typescript@5" >&2
    exit 3
  fi
fi
run_dafny() { "${toolchain[@]}" check dafny "$@"; }
run_lean() {
  echo "check.sh lean: the Lean backend is not implemented yet (no Lean 4 toolchain installs on this machine); nothing was checked." >&2
  return 3
}
case "$backend" in
  dafny) run_dafny "$@" ;;
  lean) run_lean ;;
  all) run_dafny "$@"; d=$?; run_lean; l=$?; [ "$d" -eq 0 ] && [ "$l" -eq 0 ] ;;
  *) echo "usage: scripts/check.sh dafny|lean|all [--only m1,m2] [--prover dafny23|dafny4] [--allow-stale]" >&2; exit 2 ;;
esac
