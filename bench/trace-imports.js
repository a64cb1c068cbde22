/**
 * `node --import ./bench/trace-imports.js …`: prints on stderr the files a
 * process loaded from node_modules, one `trace-import PACKAGE FILE` line
 * each: ES modules as they resolve, CommonJS ones (from the module cache) at
 * exit.
 */
import { createRequire, register } from "node:module";

register(new URL("./trace-hooks.js", import.meta.url));

const require = createRequire(import.meta.url);
process.on("exit", () => {
	for (const file of Object.keys(require.cache)) {
		const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(file);
		if (match !== null) process.stderr.write(`trace-import ${match[1]} ${match[2]}\n`);
	}
});
