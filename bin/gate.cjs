#!/bin/sh
':' /*
# Run as a program (every hook command, node_modules/.bin/gate) this part is sh: an editor may start
# the agent without the shell's PATH, and `env node` failing is exit 127, which every harness treats
# as "allow" without a word. So node is looked for where version managers put it; GATE_NODE names it.
n=$GATE_NODE
if [ -z "$n" ]; then
  n=$(command -v node) || n=
  nvm=${NVM_DIR:-$HOME/.nvm}/versions/node
  # The newest version nvm has (v20.10.0 after v20.9.0, which a sorted glob gets wrong).
  [ -n "$n" ] || for d in "$nvm"/v*; do
    v=${d#"$nvm/v"} && m=${v%%.*} && r=${v#*.} && r=${r%%.*}
    case $m$r in '' | *[!0-9]*) continue ;; esac
    [ -x "$d/bin/node" ] && [ $((m * 1000 + r)) -ge "${best:-0}" ] && best=$((m * 1000 + r)) && n=$d/bin/node
  done
  for c in "$HOME/.volta/bin/node" "$HOME/.local/share/fnm/aliases/default/bin/node" "$HOME/Library/Application Support/fnm/aliases/default/bin/node" "$HOME/.fnm/aliases/default/bin/node" "$HOME/.asdf/shims/node" "$HOME/.local/share/mise/shims/node" /opt/homebrew/bin/node /usr/local/bin/node /usr/bin/node; do
    [ -z "$n" ] && [ -x "$c" ] && n=$c
  done
fi
# Found off PATH: its directory goes first on PATH, so that gates (npx, a shebang's `env node`) find it too.
[ -n "$n" ] && [ -x "$n" ] && { command -v node >/dev/null || PATH=${n%/*}:$PATH; } && exec "$n" "$0" "$@"
w=${GATE_NODE:+"GATE_NODE is set, but not to an executable"}
m="gate: node was not found (${w:-"not on PATH, nor in nvm, volta, fnm, asdf, mise, Homebrew or /usr/local/bin"}): start the agent from a shell where node runs, or set GATE_NODE to its path (docs/getting-started.md#node-off-the-hooks-path)"
[ "$1" = run ] || { echo "$m" >&2; exit 127; }
# The hook: never exit 127. The payload is read to its end, and a stop tells the human in the harness's
# own channel (src/hook/hook-output.ts, notice) that it was allowed unchecked.
p=$(cat 2>/dev/null) || while IFS= read -r l || [ -n "$l" ]; do p=$p$l && l=; done
case $p in *'"Stop"'* | *'"SubagentStop"'* | *'"stop"'* | *'"agentStop"'* | *'"subagentStop"'* | *'"AfterAgent"'* | *'"session.idle"'*) m="$m. This stop was allowed unchecked." ;; *) m= ;; esac
case " $* " in
  *" --harness cursor "*) [ -n "$m" ] && echo "$m" >&2; echo '{"continue":true}' ;;
  *) [ -n "$m" ] && printf '{"systemMessage":"%s"}\n' "$m" ;;
esac
exit 0
*/
'use strict';
// `gate run` runs at the end of every agent turn: it gets a one-file CommonJS bundle (no ESM
// loader, nothing it doesn't need). Every other command loads the ES module build lazily.
// `gate run --help` is for a person: the ES module build answers it.
if (process.argv[2] === 'run' && !process.argv.includes('--help') && !process.argv.includes('-h')) require('../dist/hook.cjs').main(process.argv.slice(3));
else import('../dist/cli.js').then((cli) => cli.main(process.argv.slice(2)));
