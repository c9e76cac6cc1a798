import { callOutcomeNotice, callOutcomeToolNotice } from '../common/fields';
import type { ResourceDefinition } from '../types';
import { sendCode } from './sendCode';
import { sendCustomAudioCode } from './sendCustomAudioCode';

export const voiceVerification: ResourceDefinition = {
	name: 'Voice Verification',
	value: 'voiceVerification',
	description:
		'Read a code you give to a caller (for codes the node makes, limits and checks, use One-Time Code)',
	defaultOperation: 'sendCode',
	notices: [callOutcomeNotice, callOutcomeToolNotice],
	operations: [sendCode, sendCustomAudioCode],
};
