/**
 * Snapshots: a fixture session rendered in full, as one reviewable text file
 * (the system prompt, the messages as the bundle holds them, the messages as
 * a provider gets them), and a line diff for when a rendering drifts.
 */

import { contentOf } from "../measure/content.js";
import { jsonText } from "../render/json-writer.js";
import type { ContextBundle } from "../service.js";
import type { LlmMessage } from "../session/messages.js";
import { unifiedDiff } from "./line-diff.js";

/** The snapshot text of a bundle. Paths and the fingerprint are left out: they vary. */
export function snapshotText(bundle: ContextBundle, llm: readonly LlmMessage[]): string {
	const { meta } = bundle;
	const model = meta.model === null ? "none" : `${meta.model.provider}/${meta.model.modelId}`;
	const diagnostics = meta.diagnostics.map(
		(d) => `${d.severity} ${d.code} line ${d.line ?? "-"}: ${d.message}`,
	);
	return [
		`templates: ${meta.templateVersion}`,
		`leaf: ${meta.leafId ?? "none"}; model: ${model}; thinking level: ${meta.thinkingLevel ?? "none"}`,
		...diagnostics,
		"",
		"===== system prompt =====",
		bundle.systemPrompt,
		"===== messages =====",
		jsonText(bundle.messages, { indent: 2 }),
		"===== llm =====",
		...llm.flatMap((m) => [`--- ${m.role}`, llmText(m)]),
		"",
	].join("\n");
}

function llmText(message: LlmMessage): string {
	if (message.role === "user") {
		const content = message.content;
		if (typeof content === "string") return content;
		if (Array.isArray(content) && content.every((b) => b.type === "text")) {
			return contentOf(content).text;
		}
	}
	return jsonText(message.content, { indent: 2 });
}

/**
 * A unified line diff of two texts (`-` expected, `+` actual), with two
 * lines of context around each change, in linear space. Empty when equal.
 */
export function diffLines(expected: string, actual: string, context = 2): string {
	return unifiedDiff(expected, actual, { context });
}
