/**
 * Template files: YAML front-matter (split by gray-matter, parsed by the
 * `yaml` package) over a Handlebars body. Front-matter is data only: every
 * language but YAML is refused, so nothing in a template can run code.
 */
import matter from "gray-matter";
import { z } from "zod";
import { ContextError } from "../errors.js";
import { SUMMARY_LABELS } from "../view/schema.js";
import { VirtualizePolicySchema } from "../view/stub.js";
import { type ParsedYaml, parseYaml, validateYaml, type YamlProblem } from "./yaml.js";

export const FrontMatterSchema = z.strictObject({
	name: z.string().min(1).describe("Must equal the file's name without `.hbs`."),
	version: z
		.string({
			error: (issue) =>
				issue.input === undefined
					? undefined
					: `a version like "1.0.0", quoted: unquoted, YAML reads it as the ${typeof issue.input} ${String(issue.input)}`,
		})
		.regex(/^\d+\.\d+\.\d+$/, 'a version like "1.0.0" (quote it in YAML)')
		.describe("The template's own version; bumped whenever its text changes."),
	description: z.string().min(1).describe("What the template writes."),
	caps: z
		.record(z.enum(SUMMARY_LABELS), z.number().int().min(8))
		.optional()
		.describe("`collapse-context` only: the per-component character caps of the summary."),
	marker: z
		.string()
		.min(1)
		.optional()
		.describe("Framings: the line that opens the framing; session text can never forge it."),
	budget: z
		.strictObject({ tokens: z.number().int().positive() })
		.optional()
		.describe(
			"The most tokens this template's rendering may take in any fixture, in the units of the fixture's model (as `--tokenizer auto` counts them); `build` checks it.",
		),
	virtualize: VirtualizePolicySchema.optional().describe(
		"`tool-result-stub` only: the virtualization policy of the set.",
	),
});
export type FrontMatter = z.infer<typeof FrontMatterSchema>;

export interface TemplateFile {
	file: string;
	/** The whole file, for code frames. */
	text: string;
	meta: FrontMatter;
	/** The Handlebars text after the front-matter. */
	body: string;
	/** The 1-based line of the file on which the body starts. */
	bodyLine: number;
	/**
	 * Where the front-matter value at `path` stands in the file (or its
	 * nearest parent); with `"key"`, where its key does.
	 */
	locate: ParsedYaml["locate"];
}

const refuse = (language: string) => () => {
	throw new Error(`${language} front-matter is not allowed: front-matter is YAML data only`);
};

/**
 * Splits and validates one template file's text; with `name` (the file's
 * name without `.hbs`), its `name:` must equal it, said in line order with
 * the front-matter's other problems. Pure.
 */
export function parseTemplateFile(text: string, file: string, name?: string): TemplateFile {
	if (!text.startsWith("---")) {
		throw new ContextError(
			"bad_front_matter",
			text.charCodeAt(0) === 0xfeff
				? "a template must start with YAML front-matter (---); this one starts with a UTF-8 byte-order mark: save it without one"
				: "a template must start with YAML front-matter (---)",
			{
				file,
				line: 1,
				column: 1,
			},
		);
	}
	if (text.indexOf("\n---", 3) === -1) {
		// Else the whole body would be read as YAML, and its errors said line by line.
		throw new ContextError(
			"bad_front_matter",
			"the front-matter opened here is never closed: end it with a line of ---",
			{ file, line: 1, column: 1 },
		);
	}
	let parsed: ParsedYaml | undefined;
	let split: matter.GrayMatterFile<string>;
	try {
		// Passing options bypasses gray-matter's shared cache.
		split = matter(text, {
			language: "yaml",
			engines: {
				yaml: (source: string) => {
					parsed = parseYaml(source, file, "bad_front_matter", 1);
					return {};
				},
				javascript: refuse("JavaScript"),
				js: refuse("JavaScript"),
				coffee: refuse("CoffeeScript"),
				json: refuse("JSON"),
				toml: refuse("TOML"),
			},
		} as never);
	} catch (error) {
		if (error instanceof ContextError) throw error;
		throw new ContextError("bad_front_matter", (error as Error).message, {
			file,
			line: 1,
			column: 1,
		});
	}
	if (split.language !== "yaml") {
		throw new ContextError(
			"bad_front_matter",
			`${split.language} front-matter is not allowed: YAML only`,
			{
				file,
				line: 1,
				column: 1,
			},
		);
	}
	const head = text.length - split.content.length;
	const bodyLine = countLines(text, head) + 1;
	if (parsed === undefined) {
		throw new ContextError(
			"bad_front_matter",
			"empty front-matter: name, version and description are required",
			{
				file,
				line: 1,
				column: 1,
			},
		);
	}
	const meta = validateYaml(
		FrontMatterSchema,
		parsed,
		file,
		"bad_front_matter",
		"front-matter",
		misnamed(parsed, name),
	);
	return { file, text, meta, body: split.content, bodyLine, locate: parsed.locate };
}

function countLines(text: string, end: number): number {
	let n = 0;
	for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) n++;
	return n;
}

/** A `name:` that is not the file's: the problem, at the name's value. */
function misnamed(parsed: ParsedYaml, name: string | undefined): YamlProblem[] {
	const value = (parsed.value as { name?: unknown } | null)?.name;
	if (name === undefined || typeof value !== "string" || value === name) return [];
	return [
		{
			reason: `front-matter name ${JSON.stringify(value)} does not match the file name ${JSON.stringify(name)}`,
			...parsed.locate(["name"]),
		},
	];
}
