/**
 * The tool inventory of an imported session. Neither Claude Code nor Codex
 * writes the list of tools a session offered, so it is read from what the
 * session shows: the tools its calls used, and the definitions a format
 * records (Codex's `session_meta` keeps its dynamic tools). Written as a
 * `session_metadata` entry, the inventory renders as a pi log's would; a
 * tool offered but never called and never recorded stays unknown. Pure.
 */
import type { OutEntry } from "./entries.js";
import { isObj, type Obj } from "./records.js";

/** The id of the entry that holds the inventory. */
export const IMPORT_TOOLS = "import-tools";

/** The names of the tools `entries` call or record, sorted, each once. */
export function toolsOf(entries: readonly OutEntry[]): string[] {
	const names = new Set<string>();
	for (const e of entries) {
		if (e.type === "message" && isObj(e.message) && Array.isArray(e.message.content)) {
			for (const block of e.message.content as unknown[]) {
				if (isObj(block) && block.type === "toolCall") add(names, block.name);
			}
		} else if (e.type === "custom" && e.customType === "codex/session_meta" && isObj(e.data)) {
			for (const tool of recorded(e.data)) add(names, tool.name);
		}
	}
	return [...names].sort();
}

/** The tool definitions a Codex `session_meta` payload records (`dynamic_tools.tools`). */
function recorded(payload: Obj): Obj[] {
	const dynamic = payload.dynamic_tools;
	const list = isObj(dynamic) ? dynamic.tools : dynamic;
	return Array.isArray(list) ? list.filter(isObj) : [];
}

function add(names: Set<string>, name: unknown): void {
	if (typeof name === "string" && name.trim() !== "") names.add(name);
}
