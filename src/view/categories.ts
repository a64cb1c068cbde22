/**
 * Grouping the tool inventory by category. `categories.yaml` lists the
 * categories in their fixed order, each with exact tool names and `prefix_*`
 * patterns. An exact name wins over a pattern, a longer prefix over a shorter
 * one; a tool that matches nothing lands in the last group (`Other`).
 */
import { z } from "zod";
import type { ToolGroup } from "./schema.js";

const PATTERN = /^[^*\s]+\*?$/;

export const CategoriesSchema = z
	.strictObject({
		/** The name of the group for tools no category claims. */
		other: z.string().min(1).default("Other"),
		categories: z.array(
			z.strictObject({
				name: z.string().min(1),
				tools: z.array(
					z.string().regex(PATTERN, "a tool name, or a prefix ending in a single * (like dag_*)"),
				),
			}),
		),
	})
	.superRefine((config, ctx) => {
		const names = new Map<string, number>();
		const exact = new Map<string, number>();
		config.categories.forEach((category, i) => {
			if (names.has(category.name) || category.name === config.other) {
				ctx.addIssue({
					code: "custom",
					path: ["categories", i, "name"],
					message: `category ${JSON.stringify(category.name)} is named twice`,
				});
			}
			names.set(category.name, i);
			category.tools.forEach((tool, j) => {
				const other = exact.get(tool);
				if (other !== undefined) {
					ctx.addIssue({
						code: "custom",
						path: ["categories", i, "tools", j],
						message: `${JSON.stringify(tool)} is already in category ${JSON.stringify(config.categories[other]?.name)}`,
					});
				}
				exact.set(tool, i);
			});
		});
	});
export type Categories = z.infer<typeof CategoriesSchema>;

/** A compiled categoriser: tool names in, ordered groups out. */
export interface Categorizer {
	group(tools: readonly string[]): ToolGroup[];
}

export function compileCategories(config: Categories): Categorizer {
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
