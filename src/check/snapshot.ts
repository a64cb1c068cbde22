/**
 * Snapshots: a fixture session rendered in full, as one reviewable text file
 * (the system prompt, the messages as the bundle holds them, the messages as
 * a provider gets them), and a line diff for when a rendering drifts.
 */

import type { ContextBundle } from "../service/bundle.js";
import type { LlmMessage } from "../session/messages.js";
import { contentOf } from "../text/content.js";
import { jsonText } from "../text/json-writer.js";
import { unifiedDiff } from "../text/line-diff.js";

/** The snapshot text of a bundle. Paths and the fingerprint are left out: they vary. */
export function snapshotText(bundle: ContextBundle, llm: readonly LlmMessage[]): string {
	const { meta } = bundle;
	const model = meta.model === null ? "none" : `${meta.model.provider}/${meta.model.modelId}`;
	const diagnostics = meta.diagnostics.map(
		(d) => `${d.severity} ${d.code} line ${d.line ?? "-"}: ${d.message}`,
	);
	const virtualized = (meta.virtualized ?? []).map(
		(v) =>
			`virtualized #${v.index} entry ${v.entryId} (${v.toolName}${v.isError ? ", error" : ""}): ${v.chars} chars, ${v.lines} line${v.lines === 1 ? "" : "s"}, ${v.bytes} → ${v.bytes - v.savedBytes} bytes`,
	);
	return [
		`templates: ${meta.templateVersion}`,
		`leaf: ${meta.leafId ?? "none"}; model: ${model}; thinking level: ${meta.thinkingLevel ?? "none"}`,
		...diagnostics,
		...virtualized,
		"",
		"===== system prompt =====",
		bundle.systemPrompt,
		"===== messages =====",
		jsonText(bundle.messages, { indent: 2 }),
		"===== llm =====",
		...llm.flatMap((m) => [`--- ${m.role}`, llmText(m)]),
		...stubsText(bundle, llm),
		"",
	].join("\n");
}

/** The text of each stub, as the model reads it (the llm section shows it as JSON). */
function stubsText(bundle: ContextBundle, llm: readonly LlmMessage[]): string[] {
	const listed = bundle.meta.virtualized ?? [];
	if (listed.length === 0) return [];
	const out = ["===== stubs ====="];
	for (const v of listed) {
		const message = llm.find((m) => m.role === "toolResult" && m.toolCallId === v.toolCallId);
		const first = Array.isArray(message?.content) ? message.content[0] : undefined;
		out.push(`--- entry ${v.entryId}`, typeof first?.text === "string" ? first.text : "(none)");
	}
	return out;
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
