import type {
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { resolveBaseUrl } from '../../../credentials/CloopenApi.credentials';
import { checkedBaseUrl } from './baseUrl';
import { formatHeaders, SOFT_VERSION, type BodyFormat } from './bodyFormat';
import { CloopenPlatformError, transportError, unreadableResponseError } from './errors';
import { decodeResponseBody, encodeRequestBody } from './wireCodec';
import type { WireBody, XmlBodyShape } from './xmlCodec';

export type CloopenContext = IExecuteFunctions | ILoadOptionsFunctions | IWebhookFunctions;

export interface CloopenRequest {
	/** Human words for errors: "Voice Verification → Send Code". */
	operation: string;
	method: IHttpRequestMethods;
	/** The part after /2013-12-26/Accounts/{accountSid}/, e.g. "Calls/VoiceVerify". */
	path: string;
	format: BodyFormat;
	qs?: Record<string, string>;
	/** JSON wire form of the body; absent for GET. */
	body?: WireBody;
	xml?: XmlBodyShape;
	/** Response elements that are lists even when they hold one entry (XML only). */
	arrayElements?: string[];
	itemIndex?: number;
	timeoutMs?: number;
}

export type CloopenResponse = Record<string, unknown> & { statusCode: string };

const DEFAULT_TIMEOUT_MS = 60_000;
const SUCCESS = '000000';

/**
 * The only place that talks to the platform: builds the signed request (the credentials sign it),
 * decodes the answer in either format and turns any statusCode but 000000 into an error.
 */
export async function cloopenRequest(this: CloopenContext, request: CloopenRequest): Promise<CloopenResponse> {
	const credentials = await this.getCredentials('cloopenApi', request.itemIndex);
	const accountSid = String(credentials.accountSid);
	// Masked in every excerpt or message taken from an answer.
	const secrets = [String(credentials.authToken ?? '')];
	const payload =
		request.body !== undefined
			? encodeRequestBody(request.format, request.body, request.xml ?? { root: 'Request' })
			: '';
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${checkedBaseUrl(this.getNode(), resolveBaseUrl(credentials), request.itemIndex)}/${SOFT_VERSION}/Accounts/${encodeURIComponent(accountSid)}/${request.path}`,
		qs: request.qs,
		headers: {
			...formatHeaders(request.format),
			'Content-Length': String(Buffer.byteLength(payload, 'utf8')),
		},
		body: payload || undefined,
		json: false,
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
	};

	let response: { body: unknown; statusCode: number };
	try {
		// The credentials read above sign the request too: one decryption per request, and the
		// accountSid in the path is the one in the signature.
		const reference = this.getNode().credentials?.cloopenApi;
		response = await this.helpers.httpRequestWithAuthentication.call(this, 'cloopenApi', options, {
			credentialsDecrypted: { id: reference?.id ?? '', name: reference?.name ?? '', type: 'cloopenApi', data: credentials },
		});
	} catch (error) {
		throw transportError(this.getNode(), error, request);
	}

	const text = typeof response.body === 'string' ? response.body : String(response.body ?? '');
	let decoded: Record<string, unknown>;
	try {
		decoded = decodeResponseBody(request.format, text, request.arrayElements);
	} catch (error) {
		throw unreadableResponseError(this.getNode(), (error as Error).message, { httpCode: response.statusCode, body: text }, { ...request, secrets });
	}

	const statusCode = decoded.statusCode === undefined ? undefined : String(decoded.statusCode);
	if (statusCode === undefined) {
		throw unreadableResponseError(this.getNode(), 'it has no statusCode', { httpCode: response.statusCode, body: text }, { ...request, secrets });
	}
	if (statusCode !== SUCCESS) {
		throw new CloopenPlatformError(this.getNode(), statusCode, String(decoded.statusMsg ?? ''), {
			httpCode: response.statusCode,
			itemIndex: request.itemIndex,
			operation: request.operation,
			secrets,
		});
	}
	return { ...decoded, statusCode };
}
