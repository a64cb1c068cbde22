/** Module hooks for ./trace-imports.js: reports every resolved module URL. */
const seen = new Set();

export async function resolve(specifier, context, next) {
	const result = await next(specifier, context);
	const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(result.url);
	if (match !== null) {
		const key = `${match[1]} ${match[2]}`;
		if (!seen.has(key)) {
			seen.add(key);
			process.stderr.write(`trace-import ${key}\n`);
		}
	}
	return result;
}
