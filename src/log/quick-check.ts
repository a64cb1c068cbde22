/**
 * A fast path in front of the zod schemas for the entries that make up
 * almost every log: messages. It answers "certainly valid" without building
 * any object; anything it is not sure of goes to the zod schema, which stays
 * the single definition of validity and the source of every error message.
 * It must never accept what the schema rejects (a property test holds it to
 * that); rejecting more than the schema costs only speed.
 */

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === "object" && v !== null && !Array.isArray(v);
const optional = (v: unknown, type: "string" | "boolean") => v === undefined || typeof v === type;

function isContent(content: unknown): boolean {
	if (typeof content === "string") return true;
	if (!Array.isArray(content)) return false;
	for (const block of content) {
		if (!isObject(block) || typeof block.type !== "string") return false;
	}
	return true;
}

function isMessage(m: Record<string, unknown>): boolean {
	switch (m.role) {
		case "user":
		case "assistant":
			return isContent(m.content);
		case "toolResult":
			return (
				typeof m.toolCallId === "string" && typeof m.toolName === "string" && isContent(m.content)
			);
		case "bashExecution":
			return (
				typeof m.command === "string" &&
				typeof m.output === "string" &&
				(m.exitCode === undefined || m.exitCode === null || typeof m.exitCode === "number") &&
				optional(m.cancelled, "boolean") &&
				optional(m.truncated, "boolean") &&
				optional(m.fullOutputPath, "string") &&
				optional(m.excludeFromContext, "boolean")
			);
		case "custom":
			return (
				typeof m.customType === "string" && isContent(m.content) && optional(m.display, "boolean")
			);
		default:
			return false;
	}
}

/** True only for a `message` entry the schema certainly accepts. */
export function isCertainlyValidMessageEntry(value: Record<string, unknown>): boolean {
	const message = value.message;
	return (
		value.type === "message" &&
		typeof value.id === "string" &&
		value.id !== "" &&
		(value.parentId === null || typeof value.parentId === "string") &&
		typeof value.timestamp === "string" &&
		isObject(message) &&
		isMessage(message)
	);
}
