import type { ICredentialDataDecryptedObject, IExecuteFunctions } from 'n8n-workflow';

import type { OperationContext } from '../resources/types';
import { DEFAULT_TIMEOUT_SECONDS } from '../transport/answerLimits';
import type { BodyFormat } from '../transport/bodyFormat';
import { cloopenRequest } from '../transport/request';
import { InputRules } from '../validation/InputRules';
import type { ParameterReader } from './parameterReader';
import type { Slot } from './requestWindow';
import { sendInSlot } from './resendRefused';

/**
 * The node's credentials, read once per run: n8n reads them from its database and decrypts them on
 * every getCredentials call, which cost more than the rest of the node's work per item (README, "Speed").
 * They belong to the node, not the item, as in most of n8n's own nodes.
 */
const runCredentials = new WeakMap<IExecuteFunctions, Promise<ICredentialDataDecryptedObject>>();

function credentialsOfRun(n8n: IExecuteFunctions): Promise<ICredentialDataDecryptedObject> {
	let credentials = runCredentials.get(n8n);
	if (!credentials) {
		credentials = n8n.getCredentials('cloopenApi', 0);
		runCredentials.set(n8n, credentials);
	}
	return credentials;
}

export function createOperationContext(
	n8n: IExecuteFunctions,
	parameters: ParameterReader,
	itemIndex: number,
	slot?: Slot,
): OperationContext {
	const rules = new InputRules(n8n.getNode(), itemIndex);
	// An expression may give anything: "yaml" must fail the item, not quietly become JSON.
	const format = rules.oneOf('bodyFormat', parameters.get('bodyFormat', itemIndex, 'json'), ['json', 'xml']) as BodyFormat;
	const seconds = rules.integerInRange('requestTimeout', parameters.get('requestTimeout', itemIndex, DEFAULT_TIMEOUT_SECONDS), 1, 600);
	const timeoutMs = Number(seconds) * 1000;
	return {
		n8n,
		itemIndex,
		format,
		rules,
		timeoutMs,
		param: <T>(name: string, fallback?: T) => parameters.get<T>(name, itemIndex, fallback),
		request: async (request) =>
			await sendInSlot(
				slot,
				async () => await cloopenRequest.call(n8n, { ...request, format, itemIndex, timeoutMs, credentials: await credentialsOfRun(n8n) }),
				n8n.getExecutionCancelSignal?.(),
			),
	};
}
