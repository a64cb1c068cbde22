/**
 * The preview page in a real browser (Debian's Chromium, headless): the
 * sections in order with their templates, live updates on save (timed and
 * printed, not asserted), a broken template shown located and recovered
 * from, a set that stops building shown as one error under the session's
 * name (no replay beside it), a session that fails to load, a foreign Host refused, and a folder
 * of 10,000 sessions listed a page at a time. Screenshots go to
 * `test/browser/out/`; `UPDATE_SCREENSHOT=1` also rewrites `docs/preview.png`.
 */
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContext } from "../../src/library.js";
import { sectionSpans } from "../../src/measure/measure.js";
import { parseTemplateFile } from "../../src/templates/front-matter.js";
import { brokenTemplate, MISSING_FIELD, NEWEST, scratch, withMarker } from "../support/preview.js";
import { assistant, HEADER, user } from "../support/session.js";
import {
	HAVE_CHROMIUM,
	launch,
	type Preview,
	REBOUND_HOST,
	ROOT,
	spread,
	startPreviewCli,
} from "./support.js";

const SHOTS = join(ROOT, "test/browser/out");
const COLLAPSE_CHILD = "2-collapse-child.jsonl";

describe.skipIf(!HAVE_CHROMIUM)("the preview page in Chromium", { timeout: 60_000 }, () => {
	let browser: Browser;
	let preview: Preview;
	let page: Page;
	const paths = scratch();
	const tools = join(paths.templates, NEWEST, "tools.hbs");
	const goodTools = readFileSync(tools, "utf8");

	beforeAll(async () => {
		mkdirSync(SHOTS, { recursive: true });
		[browser, preview] = await Promise.all([
			launch(),
			startPreviewCli(["sessions", "--templates", "templates"], paths.root),
		]);
		page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
	}, 60_000);
	afterAll(async () => {
		await browser?.close();
		await preview?.stop();
	});

	const open = async (session: string) => {
		await page.goto(`${preview.url}#session=${encodeURIComponent(session)}`);
		await page.waitForSelector("body[data-state='ok'], body[data-state^='failed']");
	};
	const sectionText = (name: string) =>
		page.textContent(`article[data-section='${name}'] pre`) as Promise<string>;

	it("shows the four sections in order, each as rendered and labelled with its template", async () => {
		await open(COLLAPSE_CHILD);
		const names = await page.$$eval("article.section", (els) =>
			els.map((e) => (e as HTMLElement).dataset.section),
		);
		expect(names).toEqual(["harness", "tools", "environment", "lineage"]);
		const tokens = await page.$$eval("article.section .size", (els) =>
			els.map((e) => e.textContent),
		);
		for (const size of tokens) expect(size).toMatch(/^[\d,]+ tokens/);
		const bundle = await loadContext(join(paths.sessions, COLLAPSE_CHILD), {
			templates: paths.templates,
		});
		for (const { name, start, end } of sectionSpans(bundle.systemPrompt)) {
			const text = bundle.systemPrompt.slice(start, end);
			expect(await sectionText(name)).toBe(text);
			const label = await page.textContent(`article[data-section='${name}'] .template`);
			expect(label).toMatch(new RegExp(`^templates/${NEWEST}/${name}\\.hbs:\\d+$`));
		}
		await page.click("article[data-section='tools'] header");
		expect(await page.textContent("#place")).toContain("tools.hbs");

		const collapse = join(paths.templates, NEWEST, "collapse-context.hbs");
		const { marker } = parseTemplateFile(readFileSync(collapse, "utf8"), collapse).meta;
		const framed = page.locator("article.message.framed");
		expect(await framed.count()).toBe(1);
		expect(await framed.locator("pre").textContent()).toMatch(
			new RegExp(`^${escapeRegExp(marker ?? "?")}`),
		);
		expect(await framed.locator(".template").textContent()).toContain("collapse-context.hbs");
		await page.evaluate(() => window.scrollTo(0, 0));
		await page.screenshot({ path: join(SHOTS, "preview.png") });
		if (process.env.UPDATE_SCREENSHOT === "1") {
			await page.screenshot({
				path: join(ROOT, "docs/preview.png"),
				clip: { x: 0, y: 0, width: 1100, height: 540 },
			});
		}
		console.log(`screenshot: ${join(SHOTS, "preview.png")}`);
	});

	it("draws the overview strip of a long session without separators, in proportion", async () => {
		const lines: unknown[] = [HEADER];
		for (let i = 0; i < 600; i++) {
			const parent = i === 0 ? null : `m${i - 1}`;
			lines.push(
				i % 2 === 0 ? user(`m${i}`, parent, "a question") : assistant(`m${i}`, parent, "an answer"),
			);
		}
		writeFileSync(
			join(paths.sessions, "long.jsonl"),
			`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
		);
		// The folder watch lists the new session; it is chosen from the list.
		await page.click("#session-list button[data-id='long.jsonl']");
		await page.waitForSelector("body[data-session='long.jsonl'][data-state='ok']");
		const strip = await page.evaluate(() => {
			const overview = document.getElementById("overview") as HTMLElement;
			const parts = [...overview.children].map((a) => ({
				width: a.getBoundingClientRect().width,
				border: getComputedStyle(a).borderRightWidth,
			}));
			const sections = document.querySelectorAll("article.section").length;
			return {
				dense: overview.classList.contains("dense"),
				width: overview.clientWidth,
				parts,
				sections,
			};
		});
		expect(strip.dense).toBe(true);
		expect(strip.parts.length).toBe(strip.sections + 600);
		expect(strip.parts.every((p) => p.border === "0px")).toBe(true);
		// Every part is drawn, and the messages (of like sizes) take most of the strip.
		const messages = strip.parts.slice(strip.sections).reduce((sum, p) => sum + p.width, 0);
		expect(messages).toBeGreaterThan(strip.width / 2);
		// Back to a short session (an address naming it is followed): separators again.
		await open(COLLAPSE_CHILD);
		await page.waitForFunction(
			() => (document.getElementById("overview")?.children.length ?? 0) < 50,
		);
		expect(
			await page.evaluate(() => document.getElementById("overview")?.classList.contains("dense")),
		).toBe(false);
	});

	it("follows every save without a reload, including saves by rename; prints the time", async () => {
		await open(COLLAPSE_CHILD);
		await page.evaluate(() => {
			(window as unknown as { sameDocument: boolean }).sameDocument = true;
		});
		const times: number[] = [];
		for (let i = 0; i < 6; i++) {
			const marker = `edit number ${i}`;
			const text = withMarker(goodTools, marker);
			const start = performance.now();
			if (i % 2 === 0) writeFileSync(tools, text);
			else {
				writeFileSync(`${tools}.tmp`, text); // how many editors save: a new file renamed over the old
				renameSync(`${tools}.tmp`, tools);
			}
			await page.waitForFunction(
				(m) =>
					document.querySelector("article[data-section='tools'] pre")?.textContent?.includes(m),
				marker,
				{ timeout: 10_000, polling: "raf" },
			);
			times.push(performance.now() - start);
		}
		console.log(`save-to-updated-page: ${spread(times)}`);
		expect(
			await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
		).toBe(true);
		writeFileSync(tools, goodTools);
	});

	it("shows a broken template's located error instead of the prompt, and recovers", async () => {
		await open(COLLAPSE_CHILD);
		const broken = brokenTemplate(goodTools);
		writeFileSync(tools, broken.text);
		await page.waitForSelector("body[data-state='failed-templates']", { timeout: 10_000 });
		// A watcher may see the file half written (empty) first: wait for the whole file's error.
		await page.waitForFunction(
			(line) =>
				document
					.querySelector(".failure .diagnostic .where")
					?.textContent?.includes(`tools.hbs:${line}:`),
			broken.line,
			{ timeout: 10_000 },
		);
		const where = await page.textContent(".failure .diagnostic .where");
		expect(where).toMatch(new RegExp(`templates/${NEWEST}/tools\\.hbs:${broken.line}:\\d+$`));
		expect(await page.textContent(".failure .diagnostic pre")).toContain(`{{${MISSING_FIELD}}}`);
		expect(await page.locator("article.section").count()).toBe(0);
		await page.screenshot({ path: join(SHOTS, "preview-error.png") });

		writeFileSync(tools, goodTools);
		await page.waitForSelector("body[data-state='ok']", { timeout: 10_000 });
		expect(await page.locator("article.section").count()).toBe(4);
		expect(await page.isHidden("#failure")).toBe(true);
	});

	it("shows a set that stops building as one error, the session still named, and recovers", async () => {
		await open(COLLAPSE_CHILD);
		await page.waitForSelector("#replay[data-state='ok']", { timeout: 10_000 });
		const environment = join(paths.templates, NEWEST, "environment.hbs");
		const good = readFileSync(environment, "utf8");
		expect(good).toContain("{{/if}}");
		const save = (text: string) => {
			writeFileSync(`${environment}.tmp`, text); // renamed over: never seen half written
			renameSync(`${environment}.tmp`, environment);
		};
		save(good.replace("{{/if}}", ""));
		await page.waitForSelector("body[data-state='failed-templates']", { timeout: 10_000 });
		// The replay view may still be answering: wait until it has let go of its chart.
		await page.waitForSelector("#replay:not([data-state='ok'])", {
			state: "attached",
			timeout: 10_000,
		});
		expect(await page.textContent(".failure .diagnostic .where")).toMatch(
			new RegExp(`templates/${NEWEST}/environment\\.hbs:\\d+:\\d+$`),
		);
		const message = (await page.textContent(".failure .diagnostic > div")) as string;
		expect(message).not.toBe("");
		const main = (await page.textContent("main")) as string;
		expect(main.split(message).length - 1).toBe(1);
		expect(await page.locator(".diagnostic").count()).toBe(1);
		expect(await page.locator("main h2").allTextContents()).toEqual(["The templates do not build"]);
		expect(await page.textContent("#replay")).toBe("");
		expect(await page.textContent("#summary")).toBe(`session ${COLLAPSE_CHILD} · set ${NEWEST}`);
		// The status at the top says so too, with the error, not just "live".
		const status = (await page.textContent("#status")) as string;
		expect(status).toMatch(/the set fails to build/);
		expect(status).toContain(`${NEWEST}/environment.hbs:`);
		expect(status).toContain(message.split("\n")[0]?.slice(0, 20));
		expect(await page.getAttribute("#status", "class")).toContain("failing");
		await page.screenshot({ path: join(SHOTS, "preview-broken-set.png") });

		save(good);
		await page.waitForSelector("body[data-state='ok']", { timeout: 10_000 });
		expect(await page.textContent("#status")).toMatch(/^live · updated /);
		expect(await page.getAttribute("#status", "class")).not.toContain("failing");
		expect(await page.locator("article.section").count()).toBe(4);
		expect(await page.isHidden("#failure")).toBe(true);
		expect(await page.textContent("#summary")).toContain("total");
		await page.waitForSelector("#replay[data-state='ok']", { timeout: 10_000 });
	});

	it("shows a session that fails to load as its located error", async () => {
		const normal = readFileSync(join(paths.sessions, "1-normal.jsonl"), "utf8");
		writeFileSync(join(paths.sessions, "headless.jsonl"), normal.slice(normal.indexOf("\n") + 1));
		await page.goto(preview.url); // the new log is listed after its folder changed
		await page.waitForSelector("#session-list button[data-id='headless.jsonl']", {
			timeout: 10_000,
		});
		await page.click("#session-list button[data-id='headless.jsonl']");
		await page.waitForSelector("body[data-state='failed-session']");
		expect(await page.textContent(".failure .diagnostic .where")).toBe(
			`error: ${join("sessions", "headless.jsonl")}:1`,
		);
		expect(await page.textContent(".failure")).toContain("header");
	});

	it("refuses a page reached through another host name (DNS rebinding)", async () => {
		const response = await page.goto(`http://${REBOUND_HOST}:${preview.port}/`);
		expect(response?.status()).toBe(403);
		expect(await page.textContent("body")).toContain("forbidden");
		const api = await page.goto(
			`http://${REBOUND_HOST}:${preview.port}/api/view?session=${COLLAPSE_CHILD}`,
		);
		expect(api?.status()).toBe(403);
	});
});

describe.skipIf(!HAVE_CHROMIUM)("a folder of 10,000 sessions", { timeout: 90_000 }, () => {
	const COUNT = 10_000;
	let browser: Browser;
	let preview: Preview;
	const { sessions } = scratch();
	const folder = join(sessions, "many");

	beforeAll(async () => {
		mkdirSync(folder);
		const log = join(sessions, COLLAPSE_CHILD);
		for (let i = 0; i < COUNT; i++)
			copyFileSync(log, join(folder, `s-${String(i).padStart(5, "0")}.jsonl`));
		[browser, preview] = await Promise.all([launch(), startPreviewCli([folder], folder)]);
	}, 90_000);
	afterAll(async () => {
		await browser?.close();
		await preview?.stop();
		rmSync(folder, { recursive: true, force: true }); // 10,000 files: longer than the default hook time
	}, 90_000);

	it("lists them a page at a time, filters, and renders the one chosen", async () => {
		const page = await browser.newPage();
		const start = performance.now();
		await page.goto(preview.url);
		await page.waitForSelector("body[data-state='ok']");
		console.log(
			`10,000 sessions: list and first session shown in ${(performance.now() - start).toFixed(0)} ms`,
		);
		expect(await page.textContent("#count")).toContain(`${COUNT.toLocaleString("en-US")} sessions`);
		const shown = await page.locator("#session-list li").count();
		expect(shown).toBeGreaterThan(0);
		expect(shown).toBeLessThan(COUNT / 10);
		await page.click("#more");
		await page.waitForFunction(
			(n) => document.querySelectorAll("#session-list li").length > n,
			shown,
		);
		await page.fill("#filter", "09999");
		await page.waitForFunction(() => document.querySelectorAll("#session-list li").length === 1);
		await page.click("#session-list button[data-id='s-09999.jsonl']");
		await page.waitForSelector("body[data-session='s-09999.jsonl'][data-state='ok']");
		expect(await page.locator("article.section").count()).toBe(4);
	});
});

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
