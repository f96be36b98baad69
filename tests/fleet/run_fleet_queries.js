// Runs the DuckDB queries of docs/fleet.md with a real DuckDB (@duckdb/node-api) and prints their
// answers as one JSON object: {"setup": [], "recompiles-per-program": [{column: value, ...}, ...], ...}.
//
// Why extract them from the page: docs/fleet.md's queries must be the ones the fleet test runs, so
// the page is the only copy. Every ```sql name=NAME block is run in page order (`setup` first, as
// written); unnamed blocks (the Spark SQL versions) are not. Integers are printed as strings so that
// nanoseconds beyond 2^53 survive JSON; timestamps and other values as DuckDB renders them.
//
// Usage: node run_fleet_queries.js NODE_MODULES DOCS_MD WORK_DIR   (WORK_DIR holds fleet/)
'use strict';
const fs = require('fs');
const path = require('path');

async function main() {
  const [modules, docs, work] = process.argv.slice(2);
  if (!work) throw new Error('usage: run_fleet_queries.js NODE_MODULES DOCS_MD WORK_DIR');
  const { DuckDBInstance } = require(path.resolve(modules, '@duckdb', 'node-api'));
  const blocks = [...fs.readFileSync(docs, 'utf8').matchAll(/^```sql name=([\w-]+)\n([\s\S]*?)^```$/gm)];
  if (blocks.length === 0) throw new Error(`no \`\`\`sql name=... blocks in ${docs}`);
  process.chdir(work);  // the page's paths are relative: fleet/*/TABLE.jsonl
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  const answers = {};
  for (const [, name, sql] of blocks) {
    if (name in answers) throw new Error(`two blocks named ${name}`);
    const reader = await connection.runAndReadAll(sql);
    answers[name] = reader.getRowObjectsJS().map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])));
  }
  process.stdout.write(JSON.stringify(answers) + '\n');
}

main().catch((e) => {
  process.stderr.write(`run_fleet_queries: ${e.stack || e}\n`);
  process.exit(1);
});
