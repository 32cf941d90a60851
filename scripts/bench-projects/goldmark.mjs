// Go: goldmark 1.5.4 (a Markdown parser; 12 packages, no dependencies, the CommonMark spec as its
// test suite), from Debian's golang-github-yuin-goldmark-dev, which ships the module with its tests
// under /usr/share/gocode. One fix-up: `go vet` rejects CopyOnWriteBuffer.WriteByte's signature
// (it must return an error); the tree gets goldmark's own later fix, so vet is green before any edit.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { debianPackage } from './fetch.mjs';

const PACKAGE = 'golang-github-yuin-goldmark-dev';
const VERSION = '1.5.4-1';

function fixWriteByte(dir) {
  const file = join(dir, 'util', 'util.go');
  const text = readFileSync(file, 'utf8');
  const fixed = text.replace(
    /func \(b \*CopyOnWriteBuffer\) WriteByte\(c byte\) \{\n([\s\S]*?)\n\}\n/,
    (_, body) => `func (b *CopyOnWriteBuffer) WriteByte(c byte) error {\n${body}\n\treturn nil\n}\n`,
  );
  if (fixed === text) throw new Error('goldmark: util/util.go has no WriteByte(c byte) to fix: the package changed');
  writeFileSync(file, fixed);
}

export const goldmark = {
  id: 'goldmark',
  stack: 'go',
  title: 'goldmark 1.5.4',
  origin: `Debian ${PACKAGE} ${VERSION}`,
  needs: ['go'],
  fetch: ({ cache }) => join(debianPackage(cache, PACKAGE, VERSION), 'usr', 'share', 'gocode', 'src', 'github.com', 'yuin', 'goldmark'),
  prepare(source, dir) {
    cpSync(source, dir, { recursive: true });
    fixWriteByte(dir);
    return 'util/util.go: WriteByte returns an error (upstream fix; go vet fails without it)';
  },
  // Every cache in the temp folder (a cold first stop is cold); no network, no toolchain switch.
  env: (caches) => ({ GOCACHE: join(caches, 'go-build'), GOPATH: join(caches, 'gopath'), GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local' }),
  gates: [
    {
      preset: 'go-test',
      first: {
        what: 'renderer/html/html.go: <hr> rendered with a class (the HTML renderer, reached by most packages)',
        file: 'renderer/html/html.go',
        replace: ['_, _ = w.WriteString("<hr")', '_, _ = w.WriteString("<hr class=\\"gate\\"")'],
        expect: [/TestSpec/],
      },
      second: {
        what: 'extension/typographer.go: "..." becomes &mldr; instead of &hellip;',
        file: 'extension/typographer.go',
        replace: ['[]byte("&hellip;")', '[]byte("&mldr;")'],
        expect: [/TestTypographer/],
      },
    },
    {
      preset: 'go-vet',
      first: {
        what: 'ast/ast.go: Sprintf("%d") given a string (the package every other imports)',
        file: 'ast/ast.go',
        append: '\nfunc gateBenchVet() string {\n\treturn fmt.Sprintf("%d", "goldmark")\n}\n',
        expect: [/ast\/ast\.go:\d+:\d+/, /Sprintf format %d/],
      },
      second: {
        what: 'extension/footnote.go: Sprintf("%d") given a string',
        file: 'extension/footnote.go',
        append: '\nfunc gateBenchVetFootnote() string {\n\treturn fmt.Sprintf("%d", "footnote")\n}\n',
        expect: [/extension\/footnote\.go:\d+:\d+/, /Sprintf format %d/],
      },
    },
  ],
};
