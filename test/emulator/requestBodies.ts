/** A request body in JSON. */
export const json = (body: Record<string, unknown>) => JSON.stringify(body);

const escapeXml = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A request body in XML: one element per field, escaped, plus raw extra XML. */
export const xml = (root: string, fields: Record<string, string>, extra = '') =>
	`<${root}>${Object.entries(fields)
		.map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
		.join('')}${extra}</${root}>`;
