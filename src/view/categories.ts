/**
 * Grouping the tool inventory by category. `categories.yaml` lists the
 * categories in their fixed order, each with exact tool names and `prefix_*`
 * patterns. An exact name wins over a pattern, a longer prefix over a shorter
 * one; a tool that matches nothing lands in the last group (`Other`). This
 * module validates the file; `categorizer.ts` does the grouping.
 */
import { z } from "zod";

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

export { type Categorizer, compileCategories } from "./categorizer.js";
