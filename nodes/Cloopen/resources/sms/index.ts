import type { ResourceDefinition } from '../types';
import { sendTemplate } from './sendTemplate';

export const sms: ResourceDefinition = {
	name: 'SMS',
	value: 'sms',
	description: 'Send template text messages',
	defaultOperation: 'sendTemplate',
	operations: [sendTemplate],
};
