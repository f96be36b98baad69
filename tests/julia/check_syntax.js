// Parses every .jl file given (or found under the given directories) with the real Julia grammar
// (tree-sitter-julia) and prints each ERROR or MISSING node with its line. Exit 0: all parse; 1: not.
// Usage: node check_syntax.js NODE_MODULES PATH...
const fs = require('fs');
const path = require('path');
const modules = process.argv[2];
const Parser = require(path.join(modules, 'tree-sitter'));
const Julia = require(path.join(modules, 'tree-sitter-julia'));
const parser = new Parser();
parser.setLanguage(Julia);

function files(p) {
  if (fs.statSync(p).isDirectory())
    return fs.readdirSync(p).sort().flatMap((e) => files(path.join(p, e)));
  return p.endsWith('.jl') ? [p] : [];
}

let bad = 0, count = 0;
for (const f of process.argv.slice(3).flatMap(files)) {
  ++count;
  const tree = parser.parse(fs.readFileSync(f, 'utf8'), null, { bufferSize: 1 << 22 });
  const stack = [tree.rootNode];
  while (stack.length) {
    const n = stack.pop();
    if (n.type === 'ERROR' || n.isMissing) {
      ++bad;
      console.log(`${f}:${n.startPosition.row + 1}:${n.startPosition.column + 1}: ${n.isMissing ? 'missing ' + n.type : 'syntax error'}`);
      continue;
    }
    if (n.hasError) for (let i = n.childCount - 1; i >= 0; --i) stack.push(n.child(i));
  }
}
console.log(`${count} Julia files parsed with tree-sitter-julia: ${bad ? bad + ' error(s)' : 'ok'}`);
process.exit(bad || count === 0 ? 1 : 0);
