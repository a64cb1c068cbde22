/**
 * The preview page's reading aids, in Chromium: thinking and tool calls told
 * apart from text, the location box following its part when the set changes,
 * counts in the singular and plural, a loading state when another session is
 * chosen, jumping to a message and searching a long session, the strip's
 * legend, the session list's orders, and the set picker naming the set
 * "the session's set" is.
 */
import {
	appendFileSync,
	cpSync,
	mkdirSync,
	readFileSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEWEST, scratch } from "../support/preview.js";
import { assistant, entry, HEADER, metadata, user } from "../support/session.js";
import { HAVE_CHROMIUM, launch, type Preview, startPreviewCli } from "./support.js";

/** A set newer than the bundled newest, copied from it, its harness body a line lower. */
const OTHER = `v${Number(NEWEST.slice(1)) + 1}`;
const LONG = 600;

const jsonl = (lines: readonly unknown[]) => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;

/** An assistant message that thinks, says something and calls a tool. */
const thinkingCall = (id: string, parentId: string) =>
	entry(id, parentId, {
		type: "message",
		message: {
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "PONDER-the-options" },
				{ type: "text", text: "SAYS-out-loud" },
				{ type: "toolCall", id: "c1", name: "read", arguments: { path: "src/main.ts" } },
			],
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-test",
			usage: {},
			stopReason: "toolUse",
			timestamp: 2,
		},
	});

function longSession(): unknown[] {
	const lines: unknown[] = [HEADER];
	for (let i = 0; i < LONG; i++) {
		const parent = i === 0 ? null : `m${i - 1}`;
		const text = i === 451 ? "the NEEDLE-451 is here" : i % 2 === 0 ? "a question" : "an answer";
		lines.push(i % 2 === 0 ? user(`m${i}`, parent, text) : assistant(`m${i}`, parent, text));
	}
	return lines;
}

describe.skipIf(!HAVE_CHROMIUM)("the preview page's reading aids", { timeout: 60_000 }, () => {
	let browser: Browser;
	let preview: Preview;
	let page: Page;
	const paths = scratch();
	const folder = join(paths.root, "ux");

	beforeAll(async () => {
		cpSync(join(paths.templates, NEWEST), join(paths.templates, OTHER), { recursive: true });
		const harness = join(paths.templates, OTHER, "harness.hbs");
		writeFileSync(harness, readFileSync(harness, "utf8").replace("---\n", "---\n# moved down\n"));
		mkdirSync(folder);
		writeFileSync(
			join(folder, "blocks.jsonl"),
			jsonl([HEADER, user("u1", null, "look"), thinkingCall("a1", "u1")]),
		);
		writeFileSync(
			join(folder, "one.jsonl"),
			jsonl([
				HEADER,
				user("u1", null, "a"),
				assistant("a1", "u1", "b"),
				{ type: "mystery", id: "x1", parentId: "a1", timestamp: HEADER.timestamp },
			]),
		);
		writeFileSync(
			join(folder, "pinned.jsonl"),
			jsonl([HEADER, metadata("p1", null, { templateVersion: NEWEST }), user("u1", "p1", "hi")]),
		);
		writeFileSync(join(folder, "long.jsonl"), jsonl(longSession()));
		// Dates unlike the names' order: one is newest, long is oldest.
		const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);
		utimesSync(join(folder, "one.jsonl"), at(40), at(40));
		utimesSync(join(folder, "pinned.jsonl"), at(30), at(30));
		utimesSync(join(folder, "blocks.jsonl"), at(20), at(20));
		utimesSync(join(folder, "long.jsonl"), at(10), at(10));
		[browser, preview] = await Promise.all([
			launch(),
			startPreviewCli(["ux", "--templates", "templates"], paths.root),
		]);
		page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
	}, 60_000);
	afterAll(async () => {
		await browser?.close();
		await preview?.stop();
	});

	const open = async (session: string, set = "") => {
		await page.goto("about:blank"); // a fresh page: never the previous rendering taken for this one
		await page.goto(`${preview.url}#session=${encodeURIComponent(session)}&set=${set}`);
		await page.waitForSelector(`body[data-session='${session}'][data-state='ok']`);
	};
	const inView = (selector: string) =>
		page.$eval(selector, (e) => {
			const r = e.getBoundingClientRect();
			return r.top >= 0 && r.top < window.innerHeight;
		});

	it("marks thinking and tool calls (name and arguments) apart from the text", async () => {
		await open("blocks.jsonl");
		const message = page.locator("article.message[data-kind='assistant']");
		const thinking = message.locator("[data-block='thinking']");
		expect(await thinking.locator(".block-label").textContent()).toBe("thinking");
		expect(await thinking.locator("pre").textContent()).toBe("PONDER-the-options");
		const call = message.locator("[data-block='toolCall']");
		expect(await call.locator(".block-label").textContent()).toBe("tool callread");
		expect(await call.locator(".block-label b").textContent()).toBe("read");
		expect(JSON.parse((await call.locator("pre").textContent()) ?? "")).toEqual({
			path: "src/main.ts",
		});
		// The text is shown as text: not inside a marked block.
		const text = await message.locator(":scope > pre").textContent();
		expect(text).toBe("SAYS-out-loud");
		expect(await thinking.evaluate((e) => getComputedStyle(e).backgroundColor)).not.toBe(
			await call.evaluate((e) => getComputedStyle(e).backgroundColor),
		);
	});

	it("keeps the template-location box true when the set changes", async () => {
		await open("blocks.jsonl", NEWEST);
		await page.click("article[data-section='harness'] header");
		expect(await page.textContent("#place")).toContain(`templates/${NEWEST}/harness.hbs:`);
		const before = await page.textContent("#place");
		await page.selectOption("#set", OTHER);
		await page.waitForFunction(
			(v) => document.querySelector("#summary b:nth-of-type(2)")?.textContent === v,
			OTHER,
		);
		const after = await page.textContent("#place");
		expect(after).toContain(`templates/${OTHER}/harness.hbs:`);
		expect(after?.replace(OTHER, NEWEST)).not.toBe(before); // the body starts a line lower
		expect(await page.isVisible("#place")).toBe(true);
	});

	it("says 1 token, 1 char, 1 message, 1 warning: no plural for one, no (s)", async () => {
		await open("one.jsonl");
		// biome-ignore lint/performance/useDomNodeTextContent: the words as shown, one part from the next
		const text = await page.evaluate(() => document.body.innerText);
		expect(text).toMatch(/\b1 token · 1 char\b/);
		expect(text).toContain("1 warning reading the session");
		expect(text).toContain("+ 1 message)");
		expect(text).not.toMatch(
			/(^|[^\d,.])1 (tokens|chars|entries|messages|images|warnings|sessions|bytes|lines)\b/,
		);
		expect(text).not.toContain("(s)");
	});

	it("names the set the session's set is, pinned or the newest", async () => {
		const label = () => page.$eval("#set", (s) => (s as HTMLSelectElement).options[0]?.textContent);
		await open("pinned.jsonl");
		expect(await label()).toBe(`the session's set (${NEWEST})`);
		await open("blocks.jsonl");
		expect(await label()).toBe(`the session's set (${OTHER})`);
		await open("pinned.jsonl", OTHER); // another set asked for: still says the session's own
		expect(await label()).toBe(`the session's set (${NEWEST})`);
	});

	it("shows another session as loading until it arrives, not the old one as current", async () => {
		await open("blocks.jsonl");
		let release = () => {};
		const held = new Promise<void>((r) => {
			release = r;
		});
		await page.route("**/api/view?*long.jsonl*", async (route) => {
			await held;
			await route.continue();
		});
		await page.click("#session-list button[data-id='long.jsonl']");
		await page.waitForSelector("body[data-state='loading']");
		expect(await page.textContent("#loading")).toContain("long.jsonl");
		expect(await page.isVisible("#loading")).toBe(true);
		const opacity = await page.$eval("#messages", (e) => Number(getComputedStyle(e).opacity));
		expect(opacity).toBeLessThan(1);
		expect(
			await page.getAttribute("#session-list button[data-id='long.jsonl']", "aria-current"),
		).toBe("true");
		release();
		await page.waitForSelector("body[data-session='long.jsonl'][data-state='ok']");
		expect(await page.isVisible("#loading")).toBe(false);
		expect(await page.textContent("#messages h2")).toBe(`Messages (${LONG})`);
		await page.unroute("**/api/view?*long.jsonl*");
	});

	it("opens another session at its top, wherever the last one was scrolled to", async () => {
		await open("long.jsonl");
		await page.evaluate(() => document.getElementById("message-450")?.scrollIntoView());
		expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
		await page.click("#session-list button[data-id='one.jsonl']");
		await page.waitForSelector("body[data-session='one.jsonl'][data-state='ok']");
		expect(await page.evaluate(() => window.scrollY)).toBe(0);
	});

	it("jumps to a message by number, and says when there is none", async () => {
		await open("long.jsonl");
		await page.fill("#jump-to", "450");
		await page.press("#jump-to", "Enter");
		await page.waitForFunction(() => {
			const r = document.getElementById("message-450")?.getBoundingClientRect();
			return r !== undefined && r.top >= 0 && r.top < 200;
		});
		expect(await inView("#message-450")).toBe(true);
		// Its header is not hidden under the bars that stay at the top.
		const [top, bars] = await page.evaluate(() => [
			document.getElementById("message-450")?.getBoundingClientRect().top ?? -1,
			document.querySelector(".find")?.getBoundingClientRect().bottom ?? 0,
		]);
		expect(top).toBeGreaterThanOrEqual((bars as number) - 1);
		await page.fill("#jump-to", String(LONG));
		await page.press("#jump-to", "Enter");
		expect(await page.textContent("#jump-note")).toBe(`no message #${LONG} (0 to ${LONG - 1})`);
	});

	it("jumps to a message below the location box, however many lines the box takes", async () => {
		for (const width of [1100, 760, 560]) {
			await page.setViewportSize({ width, height: 760 });
			await open("long.jsonl");
			await page.click("article[data-section='harness'] header");
			expect(await page.isVisible("#place")).toBe(true);
			for (const target of ["450", "120"]) {
				await page.fill("#jump-to", target);
				await page.press("#jump-to", "Enter");
				await page.waitForFunction((id) => {
					const r = document.getElementById(id)?.getBoundingClientRect();
					return r !== undefined && r.top >= 0 && r.top < 400;
				}, `message-${target}`);
				const [heading, box] = await page.evaluate(
					(id) => [
						document.querySelector(`#${id} > header`)?.getBoundingClientRect().top ?? -1,
						document.getElementById("place")?.getBoundingClientRect().bottom ?? 0,
					],
					`message-${target}`,
				);
				expect(heading, `#${target} at ${width} px`).toBeGreaterThanOrEqual((box as number) - 1);
			}
		}
		await page.setViewportSize({ width: 1100, height: 760 });
	});

	it("searches the session: marks the matches, counts them, goes from one to the next", async () => {
		await open("long.jsonl");
		await page.fill("#search", "needle-451");
		await page.waitForFunction(() => document.getElementById("search-count")?.textContent !== "");
		expect(await page.textContent("#search-count")).toBe("1 of 1 matching part");
		expect(await page.textContent("#message-451 mark")).toBe("NEEDLE-451");
		expect(await page.getAttribute("#message-451", "class")).toContain("hit-current");
		expect(await inView("#message-451")).toBe(true);
		await page.fill("#search", "an answer");
		await page.waitForFunction(
			() => document.getElementById("search-count")?.textContent !== "1 of 1 matching part",
		);
		expect(await page.textContent("#search-count")).toBe(`1 of ${LONG / 2 - 1} matching parts`);
		await page.click("#search-next");
		expect(await page.textContent("#search-count")).toBe(`2 of ${LONG / 2 - 1} matching parts`);
		expect(await page.getAttribute("#message-3", "class")).toContain("hit-current");
		await page.click("#search-previous");
		await page.click("#search-previous");
		expect(await page.textContent("#search-count")).toBe(
			`${LONG / 2 - 1} of ${LONG / 2 - 1} matching parts`,
		);
		await page.fill("#search", "no such text anywhere");
		await page.waitForFunction(
			() => document.getElementById("search-count")?.textContent === "no match",
		);
		expect(await page.locator("main mark").count()).toBe(0);
	});

	it("explains the token strip with a legend", async () => {
		await open("blocks.jsonl");
		const keys = await page.$$eval("#legend .key", (els) =>
			els.map((e) => (e as HTMLElement).dataset.kind),
		);
		const sections = await page.$$eval("article.section", (els) =>
			els.map((e) => (e as HTMLElement).dataset.section),
		);
		expect(sections.length).toBeGreaterThan(1);
		expect(keys).toEqual([...sections, "message"]);
		const strip = await page.$eval(
			"#overview a.seg-harness",
			(e) => getComputedStyle(e).backgroundColor,
		);
		const swatch = await page.$eval(
			"#legend .key[data-kind='harness'] i",
			(e) => getComputedStyle(e).backgroundColor,
		);
		expect(swatch).toBe(strip);
		expect(await page.textContent("#legend")).toMatch(/share of the [\d,]+ tokens/);
	});

	it("sorts the sessions by name, size, date and message count", async () => {
		await open("blocks.jsonl");
		const listed = (attr?: string) =>
			page.$$eval(
				"#session-list button",
				(els, a) =>
					els.map((e) => (a === undefined ? e.getAttribute("data-id") : e.getAttribute(a))),
				attr,
			);
		expect(await listed()).toEqual(["blocks.jsonl", "long.jsonl", "one.jsonl", "pinned.jsonl"]);
		const sortBy = async (sort: string, first: string) => {
			await page.selectOption("#sort", sort);
			await page.waitForFunction(
				(id) => document.querySelector("#session-list button")?.getAttribute("data-id") === id,
				first,
			);
		};
		await sortBy("size", "long.jsonl");
		const sizes = (await listed("data-size")).map(Number);
		expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
		await sortBy("date", "one.jsonl");
		expect(await listed()).toEqual(["one.jsonl", "pinned.jsonl", "blocks.jsonl", "long.jsonl"]);
		await sortBy("messages", "long.jsonl");
		// Ties in name order.
		expect(await listed()).toEqual(["long.jsonl", "blocks.jsonl", "one.jsonl", "pinned.jsonl"]);
		expect((await listed("data-messages")).map(Number)).toEqual([LONG, 2, 2, 1]);
		expect(await page.textContent("#session-list button[data-id='long.jsonl'] .facts")).toContain(
			`${LONG} messages`,
		);
		// A session that grows moves up the list by size.
		await sortBy("size", "long.jsonl");
		appendFileSync(join(folder, "one.jsonl"), jsonl([user("u2", "x1", "y".repeat(200_000))]));
		await page.waitForFunction(
			() => document.querySelector("#session-list button")?.getAttribute("data-id") === "one.jsonl",
			undefined,
			{ timeout: 10_000 },
		);
		await sortBy("name", "blocks.jsonl");
	});
});
