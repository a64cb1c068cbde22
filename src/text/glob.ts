/**
 * Model ids matched by globs (`claude-*`, `gpt-4o?`): the tables that name
 * models (prices, token units) name families of them this way.
 */

const globs = new Map<string, RegExp>();

/** Whether `id` matches `pattern`: `*` any run of characters, `?` one; case is ignored. */
export function globMatches(pattern: string, id: string): boolean {
	let re = globs.get(pattern);
	if (re === undefined) {
		const body = [...pattern]
			.map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[\\^$.|+()[\]{}]/g, "\\$&")))
			.join("");
		re = new RegExp(`^${body}$`, "is");
		globs.set(pattern, re);
	}
	return re.test(id);
}
