// `node --import ./trace-loaded.mjs …`: prints on stderr `loaded FILE` for every
// module the process loads, ES modules as they resolve, CommonJS ones at exit.
import { createRequire, register } from "node:module";
import { fileURLToPath } from "node:url";

const hooks = `
export async function resolve(specifier, context, next) {
	const result = await next(specifier, context);
	if (result.url.startsWith("file:")) process.stderr.write("loaded " + result.url + "\\n");
	return result;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
const require = createRequire(fileURLToPath(import.meta.url));
process.on("exit", () => {
	for (const file of Object.keys(require.cache)) process.stderr.write(`loaded file://${file}\n`);
});
