/**
 * Keeping the README's example renderings true. An example is a fenced code
 * block right after a marker comment naming a fixture and what it shows:
 *
 *     <!-- rendered: test/fixtures/examples/2-collapse-child.jsonl tools,lineage -->
 *
 * where the part is `system` (the whole system prompt), `llm` (the converted
 * messages' text) or a comma list of sections (each with its tags). The build
 * renders each one and fails on any difference; `--update` rewrites the block.
 */
import { resolve } from "node:path";
import type { Diagnostic } from "../errors.js";
import { ContextService } from "../service/context-service.js";
import { compileTemplateSet } from "../templates/compile.js";
import { diffLines } from "./snapshot.js";

const MARKER = /^<!-- rendered: (\S+) (\S+) -->$/;

export interface ReadmeCheck {
	diagnostics: Diagnostic[];
	/** The README with every example block rewritten to the real rendering. */
	updated: string;
	examples: number;
}

/** Checks every marked example in `text` (the README at `file`, fixtures relative to `root`). */
export function checkReadme(
	text: string,
	file: string,
	root: string,
	service = new ContextService({ compiler: compileTemplateSet }),
): ReadmeCheck {
	const lines = text.split("\n");
	const diagnostics: Diagnostic[] = [];
	let examples = 0;
	for (let i = 0; i < lines.length; i++) {
		const match = MARKER.exec(lines[i] as string);
		if (match === null) continue;
		const open = i + 1;
		const close = lines.findIndex((l, k) => k > open && l.startsWith("```"));
		if (!lines[open]?.startsWith("```") || close === -1) {
			diagnostics.push(
				at(file, i + 1, "an example marker must be followed by a fenced code block"),
			);
			continue;
		}
		examples++;
		const actual = render(service, resolve(root, match[1] as string), match[2] as string);
		const expected = lines.slice(open + 1, close).join("\n");
		if (actual !== expected) {
			const diff = diffLines(expected, actual);
			diagnostics.push(
				at(
					file,
					open + 2,
					`this example differs from the real rendering of ${match[1]} (- README, + rendering):\n${diff}`,
				),
			);
			lines.splice(open + 1, close - open - 1, ...actual.split("\n"));
		}
		i = open;
	}
	return { diagnostics, updated: lines.join("\n"), examples };
}

function render(service: ContextService, fixture: string, part: string): string {
	const bundle = service.loadSync(fixture);
	if (part === "system") return bundle.systemPrompt;
	if (part === "llm") {
		return service
			.convertToLlm(bundle)
			.map((m) =>
				Array.isArray(m.content)
					? m.content.map((b: { text?: string }) => b.text ?? "").join("\n")
					: String(m.content),
			)
			.join("\n\n");
	}
	return part
		.split(",")
		.map((name) => {
			const match = new RegExp(`^<${name}>\\n[\\s\\S]*?\\n</${name}>$`, "m").exec(
				bundle.systemPrompt,
			);
			return match?.[0] ?? `(no ${name} section)`;
		})
		.join("\n");
}

function at(file: string, line: number, message: string): Diagnostic {
	return { severity: "error", code: "readme_drift", message, file, line };
}
