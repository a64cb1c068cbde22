/** Whether `text` holds a raw control character a terminal would act on (tab and newline aside). */
export function hasRawControl(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c < 0x20 && c !== 0x09 && c !== 0x0a) return true;
		if (c >= 0x7f && c <= 0x9f) return true;
		if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return true;
	}
	return false;
}
