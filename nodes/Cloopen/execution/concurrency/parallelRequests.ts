import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ConcurrencyPlan } from './requestWindow';
import { settingPath } from '../parameters/requestSettings';

/**
 * Adaptive's default ceiling is as wide as the platform accepts: on a slow link the node is then
 * faster than sending everything at once (docs/performance.md).
 */
const MOST = 1000;
const DEFAULT_FIXED = 10;

/**
 * Parallel Requests and its number, in Options. Parallel Requests is absent until added, which
 * means Adaptive: so Maximum Parallel Requests shows unless Fixed is chosen, and Requests at Once
 * only when it is.
 */
export function parallelRequestsFields(): INodeProperties[] {
	return [
		{
			displayName: 'Parallel Requests',
			name: 'parallelMode',
			type: 'options',
			default: 'adaptive',
			options: [
				{
					name: 'Adaptive',
					value: 'adaptive',
					description:
						'As many at once as the platform accepts: more while it accepts, fewer when it answers "too many at once" (111111, 111112, 111114); the items it refused that way are sent again',
				},
				{
					name: 'Fixed',
					value: 'fixed',
					description:
						'Always the same number at once; a "too many at once" refusal fails the item',
				},
			],
			description:
				'How many input items are sent to the platform at the same time. Output order stays the input order.',
		},
		{
			displayName: 'Maximum Parallel Requests',
			name: 'maxParallelRequests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MOST },
			default: MOST,
			displayOptions: { hide: { parallelMode: ['fixed'] } },
			description: 'The most requests in flight at once, however many the platform would accept',
		},
		{
			displayName: 'Requests at Once',
			name: 'parallelRequests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MOST },
			default: DEFAULT_FIXED,
			displayOptions: { show: { parallelMode: ['fixed'] } },
			description: 'How many items are sent at the same time (1: one after the other)',
		},
	];
}

const whole = (value: unknown, fallback: number) =>
	Math.min(MOST, Math.max(1, Math.floor(Number(value)) || fallback));

/** The run's plan; these parameters are read once, for the first item, as n8n does for such settings. */
export function readConcurrencyPlan(context: IExecuteFunctions): ConcurrencyPlan {
	const setting = (name: string, fallback: unknown) =>
		context.getNodeParameter(settingPath(name), 0, fallback);
	const adaptive = setting('parallelMode', 'adaptive') !== 'fixed';
	return adaptive
		? { adaptive, maximum: whole(setting('maxParallelRequests', MOST), MOST) }
		: { adaptive, maximum: whole(setting('parallelRequests', DEFAULT_FIXED), DEFAULT_FIXED) };
}
