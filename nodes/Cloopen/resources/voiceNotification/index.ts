import { callOutcomeNotice, callOutcomeToolNotice } from '../common/fields';
import type { ResourceDefinition } from '../types';
import { call } from './call';

export const voiceNotification: ResourceDefinition = {
	name: 'Voice Notification',
	value: 'voiceNotification',
	description: 'Call a number and play a message',
	defaultOperation: 'call',
	notices: [callOutcomeNotice, callOutcomeToolNotice],
	operations: [call],
};
