/**
 * A tools manifest: the tools a session offers the model, written down for a
 * command that cannot read them from the log (`--tools FILE`). JSON or YAML
 * (JSON is read as YAML 1.2, whose superset it is), either a list or an
 * object with a `tools` list; each item a tool's name or its definition:
 * `{name, description?, parameters?}` (a JSON Schema), Anthropic's
 * `input_schema` and OpenAI's `{type: "function", function: {...}}` taken
 * as the same. Pure: the caller reads the file. Every problem is located
 * (file, line, column), all of a file's at once.
 */
import { isNode, LineCounter, parseDocument } from "yaml";
import { z } from "zod";
import { ContextError, type Diagnostic, formatPath } from "../errors.js";

/** One tool as a manifest defines it. */
export interface ToolDefinition {
	name: string;
	description?: string;
	/** The tool's parameters, a JSON Schema. */
	parameters?: Record<string, unknown>;
}

const NAME = z
	.string()
	.min(1, "a tool name is empty")
	.refine((s) => !/[\s\p{Cc}]/u.test(s), "a tool name holds no spaces or control characters");
const SCHEMA = z.record(z.string(), z.unknown());

const Definition = z.strictObject({
	name: NAME,
	description: z.string().optional(),
	parameters: SCHEMA.optional(),
	input_schema: SCHEMA.optional(),
});
const OpenAiFunction = z.strictObject({
	type: z.literal("function"),
	function: z.strictObject({
		name: NAME,
		description: z.string().optional(),
		parameters: SCHEMA.optional(),
		strict: z.boolean().optional(),
	}),
});
type Item = string | z.infer<typeof Definition> | z.infer<typeof OpenAiFunction>;

/**
 * The tools `text` (the manifest `file`'s contents) defines, in its order.
 * @throws ContextError `bad_tools`, with one located diagnostic per problem:
 * unreadable JSON or YAML, an item that is neither a name nor a definition,
 * a tool defined twice.
 */
export function parseToolsManifest(text: string, file: string): ToolDefinition[] {
	const lines = new LineCounter();
	const doc = parseDocument(text, {
		version: "1.2",
		schema: "core",
		uniqueKeys: true,
		prettyErrors: false,
		lineCounter: lines,
	});
	const at = (offset: number) => {
		const { line, col } = lines.linePos(offset);
		return { file, line, column: col };
	};
	if (doc.errors.length > 0) {
		throw located(doc.errors.map((e) => ({ reason: firstLine(e.message), ...at(e.pos[0]) })));
	}
	const locate = (path: readonly PropertyKey[]) => {
		for (let n = path.length; n >= 0; n--) {
			const node = doc.getIn(path.slice(0, n) as unknown[], true);
			if (isNode(node) && node.range) return at(node.range[0]);
		}
		return { file, line: 1, column: 1 };
	};
	const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
	if (value === null || value === undefined) {
		throw located([
			{ reason: "the tools manifest is empty (write a list of tools)", file, line: 1 },
		]);
	}
	const base = Array.isArray(value) ? [] : ["tools"];
	const list = Array.isArray(value) ? value : listIn(value);
	if (list === undefined) {
		const reason =
			"expected a list of tools (names or definitions), or an object with a tools list";
		throw located([{ reason, ...locate([]) }]);
	}
	const items: Item[] = [];
	const problems: Problem[] = [];
	list.forEach((raw, i) => {
		const schema =
			typeof raw === "string"
				? NAME
				: isObject(raw) && "function" in raw
					? OpenAiFunction
					: Definition;
		const parsed = isObject(raw) || typeof raw === "string" ? schema.safeParse(raw) : undefined;
		if (parsed?.success) {
			items.push(parsed.data as Item);
			return;
		}
		const issues = parsed?.error.issues ?? [];
		if (issues.length === 0) {
			const reason = `at ${formatPath([...base, i])}: expected a tool's name or its definition {name, description?, parameters?}`;
			problems.push({ reason, ...locate([...base, i]) });
		}
		for (const issue of issues) {
			const path = [...base, i, ...issue.path];
			problems.push({ reason: `at ${formatPath(path)}: ${explain(issue)}`, ...locate(path) });
		}
	});
	if (problems.length > 0) throw located(problems);
	const tools = items.map(definition);
	const seen = new Map<string, number>();
	const twice: Problem[] = [];
	tools.forEach((tool, i) => {
		const first = seen.get(tool.name);
		if (first === undefined) seen.set(tool.name, i);
		else {
			const where = locate([...base, i]);
			const reason = `tool ${JSON.stringify(tool.name)} is listed twice (first as item ${first + 1})`;
			twice.push({ reason, ...where });
		}
	});
	if (twice.length > 0) throw located(twice);
	return tools;
}

/** The names of `tools`, in order: the inventory a session's system prompt lists. */
export function toolNames(tools: readonly ToolDefinition[]): string[] {
	return tools.map((t) => t.name);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === "object" && v !== null && !Array.isArray(v);

/** The list an object's `tools` key holds, if it is the object's only key and a list. */
function listIn(value: unknown): unknown[] | undefined {
	if (!isObject(value) || Object.keys(value).length !== 1) return undefined;
	return Array.isArray(value.tools) ? value.tools : undefined;
}

function definition(item: Item): ToolDefinition {
	if (typeof item === "string") return { name: item };
	const d = "function" in item ? item.function : item;
	const parameters = "input_schema" in d && d.input_schema ? d.input_schema : d.parameters;
	return {
		name: d.name,
		...(d.description === undefined ? {} : { description: d.description }),
		...(parameters === undefined ? {} : { parameters }),
	};
}

/** A zod issue in the manifest's words. */
function explain(issue: z.core.$ZodIssue): string {
	if (issue.code === "unrecognized_keys") {
		return `unknown key ${issue.keys.map((k) => JSON.stringify(k)).join(", ")} (a definition has name, description, parameters)`;
	}
	return issue.message;
}

const firstLine = (message: string) => message.split("\n")[0] ?? message;

type Problem = { reason: string; file: string; line: number; column?: number };

function located(problems: readonly Problem[]): ContextError {
	const [first, ...rest] = problems as [Problem, ...Problem[]];
	const diagnostics: Diagnostic[] = problems.map(({ reason, ...where }) => ({
		severity: "error",
		code: "bad_tools",
		message: reason,
		...where,
	}));
	const more = rest.length > 0 ? ` (and ${rest.length} more)` : "";
	const { reason, ...where } = first;
	return new ContextError("bad_tools", `${reason}${more}`, where, { diagnostics });
}
