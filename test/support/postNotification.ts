/** What a trigger URL answered a post: its status, Content-Type and body. */
export interface NotificationAnswer {
	status: number;
	contentType: string | null;
	text: string;
}

/**
 * Posts a call-result notification to a trigger URL as the platform sends it (the XML as
 * text/plain, unless `headers` names another Content-Type) and reads the whole answer.
 */
export async function postNotification(
	url: string,
	body: string,
	headers: Record<string, string> = {},
): Promise<NotificationAnswer> {
	const sent = new Headers({ 'content-type': 'text/plain' });
	for (const [name, value] of Object.entries(headers)) sent.set(name, value);
	const response = await fetch(url, { method: 'POST', body, headers: sent });
	return {
		status: response.status,
		contentType: response.headers.get('content-type'),
		text: await response.text(),
	};
}

/** The status and body of a trigger's answer, the two things most tests compare. */
export const statusAndText = ({ status, text }: NotificationAnswer) => ({ status, text });

/** The answer as one line, `<status> <body>`, for tests that list or compare many answers. */
export const answerLine = ({ status, text }: NotificationAnswer) => `${status} ${text}`;
