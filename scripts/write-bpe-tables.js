/**
 * Writes the finished ranks table of each byte-pair encoding
 * (`dist/tokenizer/NAME.bin`, see src/text/bpe-table.ts), after tsc in
 * `npm run build`: built from the `.tiktoken` files of the installed
 * `gpt-tokenizer`, so that a process that counts maps the table in with
 * one read instead of parsing the ranks. Derived files: never committed; a
 * table that no longer matches its source is refused at load and the
 * source parsed instead.
 * Usage: node scripts/write-bpe-tables.js
 */
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { bpeFiles } = await import(join(ROOT, "dist/text/bpe.js"));
const { buildRanksTable, writeRanksTable } = await import(join(ROOT, "dist/text/bpe-table.js"));

for (const name of ["o200k", "cl100k"]) {
	const { source, table } = bpeFiles(name);
	mkdirSync(dirname(table), { recursive: true });
	const data = buildRanksTable(source);
	writeRanksTable(table, data);
	console.log("ranks table", table, `(${data.length} bytes, from ${source.file}, gpt-tokenizer ${source.version})`);
}
