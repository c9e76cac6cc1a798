/**
 * n8n's AI Agent uses the Cloopen node as a tool (cloopenTool, from `usableAsTool`): the example
 * examples/ai-agent-voice-code.json, published, driven through its chat webhook as a chat widget would,
 * with a scripted OpenAI-compatible model on 127.0.0.1 in place of a real one. What the model is shown
 * (tool names, descriptions, parameter descriptions), what reaches the emulator, and what comes back to
 * the agent are all checked; so is a bad argument from the model.
 */
import { loadExample } from '../../dev/examples';
import { executionError, nodeOutput } from '../../dev/n8n/executions';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import {
	startScriptedChatModel,
	type OfferedTool,
	type PlannedToolCall,
	type ScriptedChatModel,
} from './fixtures/scriptedChatModel';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { withPublishedChat } from './fixtures/publishedChat';
import { useEmulator } from '../support/useEmulator';

const EXAMPLE = 'ai-agent-voice-code.json';
const { emulator, credentials } = useEmulator({ callDurationMs: 500 }, { resetEachTest: false });
let n8n: N8nInstance;
let cloopenCredential: string;

const toolNamed = (name: string) => (tools: OfferedTool[]) =>
	tools.find((tool) => tool.name === name);

beforeAll(async () => {
	n8n = await startSharedN8n({ packageInstall: 'readme-npm-install' });
	cloopenCredential = await n8n.createCredential('cloopenApi', 'Cloopen emulator', credentials());
});

afterAll(async () => {
	await n8n?.stop();
});

/** Publishes the example wired to `model`, sends one chat message to its webhook, returns the reply and execution. */
async function chat(model: ScriptedChatModel, message: string) {
	const workflow = loadExample(EXAMPLE, emulator.appId);
	return await withPublishedChat(n8n, { workflow, model, cloopenCredential }, async (published) => {
		const { status, output } = await published.send(message);
		const execution = await n8n.waitForExecution({ workflowId: published.workflowId }, 60_000);
		return { status, reply: { output }, execution };
	});
}

test('the agent sends a template SMS and a voice announcement through the Cloopen tools, and reports what they returned', async () => {
	const plan: PlannedToolCall[] = [
		{
			pick: toolNamed('Send_Code_by_SMS'),
			args: { to: '13800138000', code: '4821', minutes: '5' },
		},
		{
			pick: toolNamed('Call_and_Read_Announcement'),
			args: { to: '+8613800138001', text: '您的包裹今天送达' },
		},
	];
	const model = await startScriptedChatModel(plan);
	const requestsBefore = emulator.requests().length;
	try {
		const { status, reply, execution } = await chat(
			model,
			'Text the code 4821 to 13800138000 and tell +8613800138001 that the parcel arrives today',
		);
		expect({ status: execution.status, error: executionError(execution) }).toEqual({
			status: 'success',
			error: undefined,
		});
		expect(status).toBe(200);

		// Exactly the two requests the tool calls asked for reached the platform.
		const requests = emulator.requests().slice(requestsBefore);
		expect(
			requests.map((request) =>
				request.path.replace(/^.*\/Accounts\/[^/]+\//, '').replace(/\?.*$/, ''),
			),
		).toEqual(
			expect.arrayContaining([
				'SMS/TemplateSMS',
				expect.stringMatching(/^Calls\/LandingCalls\/?$/),
			]),
		);
		expect(requests).toHaveLength(2);
		const sms = emulator.messages().at(-1);
		expect(sms).toMatchObject({ to: ['13800138000'], datas: ['4821', '5'] });
		const call = emulator.calls().at(-1);
		// The model wrote +86; the platform gets the number in its one written form.
		expect(call).toMatchObject({ kind: 'landingCall', to: '13800138001' });
		const landingCall = requests.find((request) => request.path.includes('LandingCalls'));
		expect(landingCall?.parsedBody).toMatchObject({
			to: '13800138001',
			mediaTxt: '您的包裹今天送达',
		});

		// What the tools returned went back to the model, and the agent's answer carries it.
		const toolResults = model.turns[1].body.messages
			.filter((message) => message.role === 'tool')
			.map((message) => String(message.content));
		expect(toolResults.join('\n')).toContain(call?.callSid as string);
		expect(toolResults.join('\n')).toContain(sms?.smsMessageSid as string);
		expect(reply.output).toContain(call?.callSid as string);
		expect(nodeOutput(execution, 'AI Agent')[0].output).toBe(reply.output);

		// What the model was shown is enough to pick a tool and fill it.
		const offered = (model.turns[0].body.tools ?? []).map((tool) => tool.function);
		expect(offered.map((tool) => tool.name).sort()).toEqual([
			'Call_and_Read_Announcement',
			'Call_and_Read_Code',
			'Send_Code_by_SMS',
		]);
		// n8n writes each tool's description from the operation's action name, so that name must say what it does.
		expect(Object.fromEntries(offered.map((tool) => [tool.name, tool.description]))).toEqual({
			Send_Code_by_SMS: expect.stringMatching(/template SMS/i),
			Call_and_Read_Announcement: expect.stringMatching(/call .*play a message/i),
			Call_and_Read_Code: expect.stringMatching(/call .*verification code/i),
		});
		for (const tool of offered) {
			for (const [name, schema] of Object.entries(tool.parameters.properties ?? {})) {
				expect({
					tool: tool.name,
					name,
					described: (schema.description ?? '').length > 10,
				}).toEqual({ tool: tool.name, name, described: true });
			}
		}
	} finally {
		await model.close();
	}
});

test('a bad argument from the model (a 3-digit code, a number with letters) comes back to the agent as a clear tool error, and nothing is called', async () => {
	const model = await startScriptedChatModel([
		{ pick: toolNamed('Call_and_Read_Code'), args: { to: '13800abc000', verifyCode: '123' } },
	]);
	const callsBefore = emulator.calls().length;
	const requestsBefore = emulator.requests().length;
	try {
		const { reply, execution } = await chat(model, 'Call 13800abc000 and read the code 123');
		// The run goes on (the agent answers); the refusal is the tool node's answer, `{ error }` alone.
		expect(execution.status).toBe('success');
		expect(executionError(execution)).toBeUndefined();
		// n8n keeps a tool's run under its ai_tool connection.
		const answer = nodeOutput(execution, 'Call and Read Code', { connection: 'ai_tool' });
		// The first field that breaks its rule is named: To, with its value and the rule.
		expect(answer).toEqual([
			{ error: expect.stringMatching(/^To is not a phone number: .*got "13800abc000"/) },
		]);
		expect(emulator.requests().length).toBe(requestsBefore);
		expect(emulator.calls().length).toBe(callsBefore);
		const toolResult = model.turns[1].body.messages
			.filter((message) => message.role === 'tool')
			.map((message) => String(message.content))
			.join('\n');
		// the field, the value and the rule, as the node says them
		expect(toolResult).toMatch(/\bTo\b|Verification Code|verifyCode/);
		expect(toolResult).toMatch(/13800abc000|123/);
		expect(toolResult).toMatch(/not a phone number/);
		expect(reply.output).toContain(toolResult.split('\n')[0].slice(0, 40));
	} finally {
		await model.close();
	}
});
