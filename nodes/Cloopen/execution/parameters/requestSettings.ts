import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_SECONDS } from '../../../shared/transport/answerBounds';
import type { BodyFormat } from '../../../shared/transport/bodyFormat';
import type { InputRules } from '../../validation/InputRules';
import type { ParameterReader } from './parameterReader';

/** Where a setting of the run is stored: in the operation's Options collection (n8n reads "options.bodyFormat" inside it). */
export const settingPath = (name: string) => `options.${name}`;

export const bodyFormatField: INodeProperties = {
	displayName: 'Body Format',
	name: 'bodyFormat',
	type: 'options',
	default: 'json',
	options: [
		{ name: 'JSON', value: 'json', description: 'Send and receive JSON bodies' },
		{ name: 'XML', value: 'xml', description: 'Send and receive XML bodies' },
	],
	description: 'Format of the request and response bodies; the output is the same either way',
};

export const requestTimeoutField: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: 'requestTimeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 600 },
	default: DEFAULT_TIMEOUT_SECONDS,
	description:
		'Longest time one request may take, from sending it to the last byte of the answer. A server that answers slower fails the item; the request may still have been carried out.',
};

/** Body format and timeout of one item's requests, checked: an expression may give anything. */
export function readRequestSettings(
	parameters: ParameterReader,
	itemIndex: number,
	rules: InputRules,
): { format: BodyFormat; timeoutMs: number } {
	// "yaml" must fail the item, not quietly become JSON.
	const format = rules.oneOf(
		'bodyFormat',
		parameters.get(settingPath('bodyFormat'), itemIndex, 'json'),
		['json', 'xml'],
	) as BodyFormat;
	const seconds = rules.wholeNumber(
		'requestTimeout',
		parameters.get(settingPath('requestTimeout'), itemIndex, DEFAULT_TIMEOUT_SECONDS),
	);
	return { format, timeoutMs: Number(seconds) * 1000 };
}
