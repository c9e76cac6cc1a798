import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import {
	API_VERSION,
	baseUrlProblem,
	ignoresSslIssues,
	resolveBaseUrl,
} from '../nodes/shared/platform/api';
import { describeStatusCode } from '../nodes/shared/platform/statusCodes';
import { signRequest } from './cloopenSignature';

/** How long Test connection waits for the server. */
const TIMEOUT_MS = 15_000;

const CHECK_SERVER = 'Check Server and Base URL (scheme, host and port) in these credentials';

const CERT_CODES = [
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'CERT_HAS_EXPIRED',
	'ERR_TLS_CERT_ALTNAME_INVALID',
];

/** Network failures by their code: what happened, and what to check. */
const NETWORK_FAILURES: Array<{ codes: string[]; happened: string; check: string }> = [
	{
		codes: ['ECONNREFUSED'],
		happened: 'nothing accepted the connection',
		check: `${CHECK_SERVER}, and that the server is running and reachable from the n8n server.`,
	},
	{
		codes: ['ENOTFOUND', 'EAI_AGAIN'],
		happened: 'the host name could not be resolved',
		check: `${CHECK_SERVER}, and the DNS of the n8n server.`,
	},
	{
		codes: ['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT'],
		happened: `no answer within ${TIMEOUT_MS / 1000} seconds`,
		check: `${CHECK_SERVER}, and a firewall or proxy between n8n and the server.`,
	},
	{
		codes: ['ECONNRESET', 'EPIPE'],
		happened: 'the server closed the connection',
		check: `${CHECK_SERVER}: an https:// URL for a plain http:// server (or the other way round) does this.`,
	},
	{
		codes: ['EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER'],
		happened: 'the TLS handshake failed',
		check: `${CHECK_SERVER}: the server may speak plain http://.`,
	},
	{
		codes: CERT_CODES,
		happened: "the server's certificate is not trusted",
		check:
			'For your own server with a self-signed certificate (the local emulator), choose Server "Custom URL" and switch on "Ignore SSL Issues". Cloopen\'s own servers never need it.',
	},
];

/** The network error code of a failed request, wherever n8n's request helper put it. */
function errorCode(error: unknown): string | undefined {
	for (let current = error, depth = 0; current && depth < 5; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && code !== '') return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** What went wrong on the way to the server, and what to check. */
function networkFailure(error: unknown): string {
	const code = errorCode(error);
	// n8n's request helper replaces a certificate error by its own NodeSslError, without the code.
	const certificate = (error as Error | undefined)?.name === 'NodeSslError';
	const known = NETWORK_FAILURES.find((entry) =>
		code !== undefined
			? entry.codes.includes(code)
			: certificate && entry.codes.includes(CERT_CODES[0]),
	);
	if (!known) return `${code ?? 'the request failed'}. ${CHECK_SERVER}.`;
	return `${known.happened}${code ? ` (${code})` : ''}. ${known.check}`;
}

/** A URL as an error may show it: no user name or password, no query or fragment values. */
function shownUrl(url: string): string {
	try {
		const parsed = new URL(url);
		const hidden = (part: string) => (part === '' ? '' : `${part[0]}…`);
		return `${parsed.protocol}//${parsed.host}${parsed.pathname}${hidden(parsed.search)}${hidden(parsed.hash)}`;
	} catch {
		return url.replace(/[^/\\@\s]*@/g, '***@').slice(0, 200);
	}
}

/** Text with the token taken out, in any casing. */
function withoutToken(text: string, token: string): string {
	if (token === '') return text;
	return text.replace(new RegExp(token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '***');
}

const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/**
 * Test connection: the Base URL checked by the rule every node applies, then AccountInfo asked for,
 * signed as every request is. A failure says which server, what happened and what to check.
 */
export async function testCloopenConnection(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data: ICredentialDataDecryptedObject = credential.data ?? {};
	const baseUrl = resolveBaseUrl(data);
	const problem = baseUrlProblem(baseUrl);
	if (problem !== undefined) {
		return failed(
			`Base URL ${problem}, got "${shownUrl(baseUrl)}". Every Cloopen node refuses it too: use e.g. https://app.cloopen.com:8883, or http://127.0.0.1:8883 for the local emulator.`,
		);
	}

	const accountSid = String(data.accountSid ?? '').trim();
	const authToken = String(data.authToken ?? '');
	const { sig, authorization } = signRequest(accountSid, authToken);
	let answer: { statusCode?: number; body?: unknown };
	try {
		// n8n gives a credential test only this helper (ICredentialTestFunctions has no httpRequest).
		// eslint-disable-next-line @n8n/community-nodes/no-deprecated-workflow-functions
		answer = (await this.helpers.request({
			method: 'GET',
			uri: `${baseUrl}/${API_VERSION}/Accounts/${encodeURIComponent(accountSid)}/AccountInfo`,
			qs: { sig },
			headers: {
				Accept: 'application/json',
				'Content-Type': 'application/json;charset=utf-8',
				'Content-Length': '0',
				Authorization: authorization,
			},
			json: true,
			timeout: TIMEOUT_MS,
			rejectUnauthorized: !ignoresSslIssues(data),
			resolveWithFullResponse: true,
			simple: false,
		})) as { statusCode?: number; body?: unknown };
	} catch (error) {
		return failed(`Could not connect to ${baseUrl}: ${networkFailure(error)}`);
	}

	const body = answer.body as { statusCode?: unknown; statusMsg?: unknown } | undefined;
	const statusCode = typeof body?.statusCode === 'string' ? body.statusCode : undefined;
	if (statusCode === '000000') return { status: 'OK', message: 'Connection successful!' };
	if (statusCode === undefined) {
		return failed(
			`The server at ${baseUrl} answered HTTP ${answer.statusCode ?? '?'} without a Cloopen statusCode: it is not the Cloopen platform (or the emulator). ${CHECK_SERVER}.`,
		);
	}
	const statusMsg = typeof body?.statusMsg === 'string' ? body.statusMsg : '';
	const info = describeStatusCode(statusCode, statusMsg);
	// For a code without English text the platform's own words are the reason; the token never shows.
	const reason = info.known ? '' : ` statusMsg: ${withoutToken(statusMsg, authToken)}.`;
	return failed(
		`${info.explanation}.${reason}${info.hint ? ` ${info.hint}` : ''} (statusCode ${statusCode})`,
	);
}
