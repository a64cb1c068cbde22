/**
 * Snapshots: a fixture session rendered in full, as one reviewable text file
 * (the system prompt, the messages as the bundle holds them, the messages as
 * a provider gets them), and a line diff for when a rendering drifts.
 */
import type { ContextBundle } from "../service.js";
import type { LlmMessage } from "../session/messages.js";

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
		JSON.stringify(bundle.messages, null, 2),
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
			return content.map((b) => b.text).join("\n");
		}
	}
	return JSON.stringify(message.content, null, 2);
}

/**
 * A unified-style line diff of two texts (`-` expected, `+` actual), with
 * two lines of context around each change. Empty when they are equal.
 */
export function diffLines(expected: string, actual: string, context = 2): string {
	if (expected === actual) return "";
	const a = expected.split("\n");
	const b = actual.split("\n");
	// Longest common subsequence lengths, row-major; snapshots are small.
	const n = a.length;
	const m = b.length;
	const width = m + 1;
	const lcs = new Uint32Array((n + 1) * width);
	const at = (i: number, j: number) => lcs[i * width + j] as number;
	for (let i = n - 1; i >= 0; i--) {
		for (let j = m - 1; j >= 0; j--) {
			lcs[i * width + j] =
				a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
		}
	}
	const ops: { op: " " | "-" | "+"; text: string }[] = [];
	let i = 0;
	let j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && a[i] === b[j]) {
			ops.push({ op: " ", text: a[i] as string });
			i++;
			j++;
		} else if (j < m && (i === n || at(i, j + 1) >= at(i + 1, j))) {
			ops.push({ op: "+", text: b[j++] as string });
		} else {
			ops.push({ op: "-", text: a[i++] as string });
		}
	}
	const show = new Uint8Array(ops.length);
	ops.forEach((o, k) => {
		if (o.op === " ") return;
		for (let c = Math.max(0, k - context); c <= Math.min(ops.length - 1, k + context); c++)
			show[c] = 1;
	});
	const out: string[] = [];
	let gap = false;
	ops.forEach((o, k) => {
		if (show[k] === 1) {
			if (gap) out.push("  …");
			gap = false;
			out.push(`${o.op} ${o.text}`);
		} else {
			gap = out.length > 0;
		}
	});
	return out.join("\n");
}
