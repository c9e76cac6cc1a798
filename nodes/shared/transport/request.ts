import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { API_VERSION, resolveBaseUrl } from '../platform/api';
import { withKnownSecretsMasked } from '../secrets';
import {
	AnswerBoundError,
	answerDepth,
	DEFAULT_TIMEOUT_SECONDS,
	MAX_ANSWER_DEPTH,
	MAX_API_ANSWER_BYTES,
	receiveWithinBounds,
	type ReceivedAnswer,
} from './answerBounds';
import { checkedBaseUrl } from './baseUrl';
import { formatHeaders, type BodyFormat } from './bodyFormat';
import {
	answerBoundError,
	CloopenPlatformError,
	redirectError,
	transportError,
	unreadableResponseError,
} from './errors';
import { decodeResponseBody, encodeRequestBody } from './wireCodec';
import type { WireBody, XmlBodyShape } from './xmlCodec';

type CloopenContext = IExecuteFunctions | ILoadOptionsFunctions | IWebhookFunctions;

export interface CloopenRequest {
	/** Human words for errors: "Voice Verification → Send Code". */
	operation: string;
	method: IHttpRequestMethods;
	/** The part after /{API_VERSION}/Accounts/{accountSid}/, e.g. "Calls/VoiceVerify". */
	path: string;
	format: BodyFormat;
	qs?: Record<string, string>;
	/** JSON wire form of the body; absent for GET. */
	body?: WireBody;
	xml?: XmlBodyShape;
	/** Response elements that are lists even when they hold one entry (XML only). */
	arrayElements?: string[];
	itemIndex?: number;
	/** Overall deadline, from sending to the last byte of the answer. */
	timeoutMs?: number;
	/** The credentials already read for this run (n8n reads them from its database on every call). */
	credentials?: ICredentialDataDecryptedObject;
}

export type CloopenResponse = Record<string, unknown> & { statusCode: string };

const SUCCESS = '000000';

/**
 * n8n's helper puts the execution's cancel signal on the request in place of the deadline's, so a
 * server trickling its headers would keep the connection open long after the item failed. The helper
 * reads that signal from the context it is called on: called on this one, it gets a signal that fires
 * at the deadline too, and the connection is closed then.
 */
function contextEndingAt<C extends CloopenContext>(context: C, deadline: AbortSignal): C {
	const cancel =
		'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
	const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
	return Object.create(context, { getExecutionCancelSignal: { value: () => signal } }) as C;
}

/**
 * The only place that talks to the platform: builds the signed request (the credentials sign it),
 * decodes the answer in either format and turns any statusCode but 000000 into an error.
 */
export async function cloopenRequest(
	this: CloopenContext,
	request: CloopenRequest,
): Promise<CloopenResponse> {
	const credentials: ICredentialDataDecryptedObject =
		request.credentials ?? (await this.getCredentials('cloopenApi', request.itemIndex));
	const accountSid = String(credentials.accountSid);
	// Masked in every excerpt or message taken from an answer.
	const secrets = [String(credentials.authToken ?? '')];
	const payload =
		request.body !== undefined
			? encodeRequestBody(request.format, request.body, request.xml ?? { root: 'Request' })
			: '';
	const url = `${checkedBaseUrl(this.getNode(), resolveBaseUrl(credentials), request.itemIndex)}/${API_VERSION}/Accounts/${encodeURIComponent(accountSid)}/${request.path}`;
	const options: IHttpRequestOptions = {
		method: request.method,
		url,
		qs: request.qs,
		headers: {
			...formatHeaders(request.format),
			'Content-Length': String(Buffer.byteLength(payload, 'utf8')),
		},
		body: payload || undefined,
		json: false,
	};

	let answer: ReceivedAnswer;
	try {
		// The credentials read above sign the request too: one decryption per request, and the
		// accountSid in the path is the one in the signature.
		const reference = this.getNode().credentials?.cloopenApi;
		answer = await receiveWithinBounds(
			async (bounded) =>
				await this.helpers.httpRequestWithAuthentication.call(
					contextEndingAt(this, bounded.abortSignal as AbortSignal),
					'cloopenApi',
					bounded,
					{
						credentialsDecrypted: {
							id: reference?.id ?? '',
							name: reference?.name ?? '',
							type: 'cloopenApi',
							data: credentials,
						},
					},
				),
			options,
			{
				deadlineMs: request.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000,
				maxBytes: MAX_API_ANSWER_BYTES,
				what: 'answer',
			},
		);
	} catch (error) {
		if (error instanceof AnswerBoundError) throw answerBoundError(this.getNode(), error, request);
		throw transportError(this.getNode(), error, request);
	}
	if (answer.statusCode >= 300 && answer.statusCode < 400)
		throw redirectError(this.getNode(), answer, url, request);

	const text = answer.body.toString('utf8').replace(/^\uFEFF/, '');
	const unreadable = (reason: string) =>
		unreadableResponseError(
			this.getNode(),
			reason,
			{ httpCode: answer.statusCode, body: text },
			{ ...request, secrets },
		);
	if (answerDepth(text) > MAX_ANSWER_DEPTH)
		throw unreadable(`it is nested more than ${MAX_ANSWER_DEPTH} levels deep`);
	let decoded: Record<string, unknown>;
	try {
		decoded = decodeResponseBody(request.format, text, request.arrayElements);
	} catch (error) {
		throw unreadable((error as Error).message);
	}

	const statusCode = decoded.statusCode === undefined ? undefined : String(decoded.statusCode);
	if (statusCode === undefined) throw unreadable('it has no statusCode');
	if (statusCode !== SUCCESS) {
		throw new CloopenPlatformError(
			this.getNode(),
			statusCode,
			statusMessageText(decoded.statusMsg),
			{
				httpCode: answer.statusCode,
				itemIndex: request.itemIndex,
				operation: request.operation,
				secrets,
			},
		);
	}
	return { ...withKnownSecretsMasked(decoded, secrets), statusCode };
}

/** The platform's statusMsg as text; anything but text is shown as JSON, never as "[object Object]". */
function statusMessageText(value: unknown): string {
	if (value === undefined || value === null) return '';
	return typeof value === 'string' ? value : JSON.stringify(value);
}
