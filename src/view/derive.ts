/**
 * Deriving the view-models from a projected session and the runtime options.
 * Pure: parsed values in, plain objects out. Every value that comes from the
 * session is neutralised here, once, before any template sees it.
 */
import type { Diagnostic } from "../errors.js";
import type { Header, SessionMetadata } from "../log/schema.js";
import type { Categorizer } from "./categorizer.js";
import { neutralize } from "./neutralize.js";
import type { SummaryComponent, SystemView } from "./schema.js";
import { capSummary, formatSummary, parseSummary, type SummaryCaps } from "./summary.js";

/** Runtime options that override the session's own values. */
export interface ViewOptions {
	/** The tool inventory (names); default: the `tools` metadata key. */
	tools?: readonly string[];
	/** The memory text; default: the `memory` metadata key. */
	memory?: string;
	/** The working directory; default: the `cwd` metadata key, then the header's. */
	cwd?: string;
}

/** The view of the skeleton and the four sections. */
export function deriveSystemView(
	header: Header,
	metadata: SessionMetadata,
	set: { categorizer: Categorizer; markers: readonly string[] },
	options: ViewOptions = {},
): SystemView {
	const { categorizer, markers } = set;
	const block = (text: string) => neutralize(text, markers);
	const line = (text: string) => neutralize(text, markers, { line: true });
	const introduction = present(metadata.harnessIntroduction);
	const memory = present(options.memory ?? metadata.memory);
	const tools = (options.tools ?? metadata.tools ?? []).map(line).filter((t) => t !== "");
	const nodeId = present(metadata.collapseNodeId);
	const sourceSessionId = present(metadata.sourceSessionId ?? header.parentSession);
	return {
		harness: introduction === undefined ? {} : { introduction: block(introduction) },
		toolGroups: categorizer.group(tools),
		environment: {
			cwd: line(options.cwd ?? metadata.cwd ?? header.cwd),
			...(memory === undefined ? {} : { memory: block(memory) }),
		},
		...(nodeId === undefined
			? {}
			: {
					lineage: {
						nodeId: line(nodeId),
						...(sourceSessionId === undefined ? {} : { sourceSessionId: line(sourceSessionId) }),
					},
				}),
	};
}

/**
 * The stored compact summary as the five capped components, and its normal
 * form for the `collapse_context` payload. Cuts are reported, not hidden.
 */
export function deriveSummary(
	stored: string,
	caps: SummaryCaps,
	markers: readonly string[],
): { components: SummaryComponent[]; text: string; diagnostics: Diagnostic[] } {
	const parsed = parseSummary(stored).map(({ label, value }) => ({
		label,
		value: neutralize(value, markers),
	}));
	const { components, cut } = capSummary(parsed, caps);
	const diagnostics: Diagnostic[] = cut.map(({ label, from, to }) => ({
		severity: "warning",
		code: "summary_cut",
		message: `compact summary component "${label}" cut from ${from} to its cap of ${to} characters`,
	}));
	return { components, text: formatSummary(components), diagnostics };
}

/** A value that is absent, null or blank counts as not set. */
function present(value: string | undefined): string | undefined {
	return value === undefined || value.trim() === "" ? undefined : value;
}
