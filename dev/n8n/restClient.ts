/** A non-2xx answer from n8n, with what n8n said. */
export class N8nApiError extends Error {
	constructor(
		readonly method: string,
		readonly path: string,
		readonly status: number,
		readonly body: unknown,
	) {
		super(
			`${method} ${path} -> HTTP ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`,
		);
	}
}

const AUTH_COOKIE = 'n8n-auth';

/**
 * n8n's internal REST API (/rest/...) as the editor uses it: a session cookie (n8n-auth, a JWT) issued
 * by owner setup or login. No `browser-id` header is ever sent, so the JWT carries no browser id and
 * n8n skips its browser-id check. n8n re-issues the cookie when it nears expiry; the newest is kept.
 */
export class RestClient {
	/** `cookie`: another client's session on the same n8n, so this one needs no login (n8n allows five a minute per user). */
	constructor(
		readonly baseUrl: string,
		private cookie?: string,
	) {}

	/** The session cookie's value, for another client of the same n8n (n8n limits logins per user). */
	get session(): string | undefined {
		return this.cookie;
	}

	/** Sends JSON, returns the parsed JSON body (n8n wraps most answers as `{ data: ... }`). */
	async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		return await this.send<T>(method, `/rest${path}`, body);
	}

	/** Like request(), for a path outside /rest (e.g. /types/nodes.json, what the editor loads). */
	async send<T = unknown>(method: string, pathFromRoot: string, body?: unknown): Promise<T> {
		const sendOnce = () =>
			fetch(`${this.baseUrl}${pathFromRoot}`, {
				method,
				headers: {
					...(body === undefined ? {} : { 'content-type': 'application/json' }),
					...(this.cookie ? { cookie: `${AUTH_COOKIE}=${this.cookie}` } : {}),
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
		// n8n closes a keep-alive connection idle for 5 s; on a loaded machine a request can go out on one
		// as n8n closes it and fail unread, so it goes once more on a new connection.
		const response = await sendOnce().catch(async (error: unknown) => {
			if (!closedUnanswered(error)) throw error;
			return await sendOnce();
		});
		this.keepCookie(response);
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			// not JSON: keep the text for the error message
		}
		if (!response.ok) throw new N8nApiError(method, pathFromRoot, response.status, parsed);
		return parsed as T;
	}

	/** Creates the instance owner on a fresh n8n; the answer carries the session cookie. */
	async setupOwner(owner: {
		email: string;
		password: string;
		firstName: string;
		lastName: string;
	}): Promise<void> {
		await this.request('POST', '/owner/setup', owner);
		if (!this.cookie) throw new Error('owner setup answered without an n8n-auth cookie');
	}

	async login(email: string, password: string): Promise<void> {
		await this.request('POST', '/login', { emailOrLdapLoginId: email, password });
		if (!this.cookie) throw new Error('login answered without an n8n-auth cookie');
	}

	private keepCookie(response: Response): void {
		for (const header of response.headers.getSetCookie()) {
			const [pair] = header.split(';');
			const eq = pair.indexOf('=');
			if (pair.slice(0, eq).trim() === AUTH_COOKIE) this.cookie = pair.slice(eq + 1) || undefined;
		}
	}
}

/** fetch's failure when the server closed the connection before any answer (undici's socket error). */
function closedUnanswered(error: unknown): boolean {
	const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
	return cause?.code === 'UND_ERR_SOCKET';
}
