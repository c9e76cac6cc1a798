import type { ICredentialDataDecryptedObject, IWebhookFunctions } from 'n8n-workflow';

import { cloopenRequest } from '../transport/request';
import type { Notification } from './normalise';
import { Refusal } from './refusal';
import { forgetVerifyingCredentials, verifyingCredentials } from './verifyingCredentials';

/** Overall deadline of the question to the platform: a slow or trickling server is refused after it. */
const VERIFY_DEADLINE_MS = 15_000;

export interface Verification {
	/** The platform's callTime for the call (unit not documented). */
	callTime: string | null;
}

const stateOf = (response: Record<string, unknown>): string | undefined => {
	const result = response.CallResult ?? response.callResult;
	if (typeof result !== 'object' || result === null) return undefined;
	const state = (result as Record<string, unknown>).state;
	return state === undefined || state === null ? undefined : String(state).trim();
};

const sameCredentials = (a: ICredentialDataDecryptedObject, b: ICredentialDataDecryptedObject) =>
	JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/**
 * Asks the platform (Call Result, docs/platform.md#call-result) whether the call really ended as the notification says.
 * The platform does not sign its callbacks; this makes a forged "answered" or "failed" useless. A
 * mismatch, a notification without a call, or any failure to ask is refused with 403.
 */
export async function verifyCallResult(
	this: IWebhookFunctions,
	notification: Notification,
	deadlineMs = VERIFY_DEADLINE_MS,
): Promise<Verification> {
	if (notification.callSid === null || notification.state === null) {
		throw new Refusal(
			403,
			'cannot verify a notification without callSid and state',
			'notConfirmedByPlatform',
		);
	}
	const callSid = notification.callSid;
	const ask = async (credentials: ICredentialDataDecryptedObject) =>
		await cloopenRequest
			.call(this, {
				operation: 'Cloopen Trigger → verify the call result',
				method: 'GET',
				path: 'CallResult',
				format: 'json',
				qs: { callsid: callSid },
				timeoutMs: deadlineMs,
				credentials,
			})
			.then(
				(answer) => ({ answer, failure: undefined }),
				(error: Error) => ({ answer: undefined, failure: error }),
			);
	let response: Record<string, unknown> | undefined;
	let failure: Error | undefined;
	try {
		const first = await verifyingCredentials(this);
		({ answer: response, failure } = await ask(first.credentials));
		if (response === undefined && first.remembered) {
			// Remembered credentials may have been changed since (a token, a Base URL): read them
			// again, and ask again only if they did change.
			forgetVerifyingCredentials(this);
			const fresh = await verifyingCredentials(this);
			if (!sameCredentials(fresh.credentials, first.credentials))
				({ answer: response, failure } = await ask(fresh.credentials));
		}
	} catch (error) {
		failure = error as Error;
	}
	if (response === undefined) {
		// The message names the statusCode or network cause; credentials never appear in it.
		this.logger.warn(
			`Cloopen Trigger: could not verify call ${notification.callSid}: ${failure?.message ?? 'no answer'}`,
		);
		throw new Refusal(403, 'could not verify the call with the platform', 'notConfirmedByPlatform');
	}
	const state = stateOf(response);
	if (state !== notification.state) {
		this.logger.warn(
			`Cloopen Trigger: call ${notification.callSid} refused: notification says state ${notification.state}, the platform says ${state ?? 'nothing'}`,
		);
		throw new Refusal(403, 'call result does not match the platform', 'notConfirmedByPlatform');
	}
	const result = (response.CallResult ?? response.callResult) as Record<string, unknown>;
	return {
		callTime:
			result.callTime === undefined || result.callTime === null ? null : String(result.callTime),
	};
}
