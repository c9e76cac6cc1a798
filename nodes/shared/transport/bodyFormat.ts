/** The two body formats of the platform; the Accept and Content-Type headers name the same one. */
export type BodyFormat = 'json' | 'xml';

export function formatHeaders(format: BodyFormat): { Accept: string; 'Content-Type': string } {
	return format === 'xml'
		? { Accept: 'application/xml', 'Content-Type': 'application/xml;charset=utf-8' }
		: { Accept: 'application/json', 'Content-Type': 'application/json;charset=utf-8' };
}
