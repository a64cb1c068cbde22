/**
 * Grouping tool names by category at render time. Plain code over the plain
 * categories data (validated by `categories.ts` when a set is compiled), so
 * the render path needs no schema library.
 */
import type { ToolGroup } from "./schema.js";

/** The categories of `categories.yaml`, once validated. */
export interface CategoriesData {
	/** The name of the group for tools no category claims. */
	other: string;
	categories: readonly { name: string; tools: readonly string[] }[];
}

/** A compiled categoriser: tool names in, ordered groups out. */
export interface Categorizer {
	group(tools: readonly string[]): ToolGroup[];
}

/**
 * An exact name wins over a pattern, a longer prefix over a shorter one; a
 * tool that matches nothing lands in the last group (`other`).
 */
export function compileCategories(config: CategoriesData): Categorizer {
	const exact = new Map<string, number>();
	const prefixes: { prefix: string; index: number }[] = [];
	config.categories.forEach((category, index) => {
		for (const tool of category.tools) {
			if (tool.endsWith("*")) prefixes.push({ prefix: tool.slice(0, -1), index });
			else exact.set(tool, index);
		}
	});
	// Longest prefix first; equal lengths keep the categories' order.
	prefixes.sort((a, b) => b.prefix.length - a.prefix.length || a.index - b.index);
	const otherIndex = config.categories.length;
	const names = [...config.categories.map((c) => c.name), config.other];

	const categoryOf = (tool: string): number => {
		const hit = exact.get(tool);
		if (hit !== undefined) return hit;
		for (const { prefix, index } of prefixes) if (tool.startsWith(prefix)) return index;
		return otherIndex;
	};

	return {
		group(tools) {
			const buckets: string[][] = names.map(() => []);
			for (const tool of new Set(tools)) buckets[categoryOf(tool)]?.push(tool);
			const groups: ToolGroup[] = [];
			buckets.forEach((bucket, i) => {
				if (bucket.length === 0) return;
				bucket.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
				groups.push({ name: names[i] as string, tools: bucket });
			});
			return groups;
		},
	};
}
