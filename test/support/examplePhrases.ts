/**
 * One description per thing the examples' sticky notes come back to: a line (a bullet or a
 * paragraph) of a note that mentions the thing says it in these exact words, so two examples cannot
 * describe it two ways (test/engine/examplesSafety.test.ts). A note may add to the phrase what is
 * particular to its example, after it.
 */
export interface ExamplePhrase {
	thing: string;
	/** A line mentioning the thing. */
	mention: RegExp;
	/** The words every such line uses. */
	phrase: string;
}

/** What test numbers are, in the words of the examples and of the Template ID field of SMS → Send Template. */
export const TEST_NUMBERS = 'it only reaches the test numbers registered in the console';

/** How an AI example's user in mainland China swaps OpenAI for a model they can reach (n8n 2.41's own chat model nodes). */
export const MODEL_FROM_MAINLAND_CHINA =
	"**A model you can reach from mainland China:** OpenAI is not reachable there. Replace *OpenAI Chat Model* with n8n's *DeepSeek Chat Model* or *Qwen Cloud Chat Model* (Region *China (Beijing)*) and connect it to *AI Agent* as its Chat Model; or keep the node and set **Base URL** in its OpenAI credential to an OpenAI-compatible service you can reach (`https://api.deepseek.com/v1`, `https://dashscope.aliyuncs.com/compatible-mode/v1` for Qwen), then choose one of that service's models in *Model*. The model must support tool calling.";

export const EXAMPLE_PHRASES: ExamplePhrase[] = [
	{
		thing: 'template 1',
		mention: /`1`[^.]*template|template[^.]*`1`|test template/i,
		phrase: `**Template ID** \`1\` is Cloopen's test template (\`{1}\` a code, \`{2}\` minutes): ${TEST_NUMBERS}.`,
	},
	{ thing: 'test numbers', mention: /test numbers?\b/i, phrase: TEST_NUMBERS },
	{
		thing: 'App ID',
		mention: /App ID/,
		phrase:
			'**App ID** is left empty in every Cloopen node, so the **Default App ID** of your Cloopen credentials is used. Enter an App ID in a node to use another application.',
	},
	{
		thing: 'a chat that is not public',
		mention: /not public|publicly available|open chat/i,
		phrase:
			"**Who can chat:** the chat is **not public**: try it with the editor's **Open chat**. To let others use it, turn on *Make Chat Publicly Available* in *When Chat Message Received* **and** set its **Authentication**.",
	},
	{
		thing: 'a chat model reachable from mainland China',
		mention: /mainland China:\*\*|Chat Model\* with/,
		phrase: MODEL_FROM_MAINLAND_CHINA,
	},
	{
		thing: "the AI examples' Cloopen credentials",
		mention: /in every Cloopen tool/,
		phrase: '**Cloopen credentials:** choose your Cloopen credentials in every Cloopen tool (',
	},
];

/** The lines of these texts that mention a thing without its phrase: one per thing and line. */
export function linesAtOdds(texts: string[]): Array<{ thing: string; line: string }> {
	const lines = texts.flatMap((text) => text.split('\n'));
	return EXAMPLE_PHRASES.flatMap(({ thing, mention, phrase }) =>
		lines
			.filter((line) => mention.test(line) && !line.includes(phrase))
			.map((line) => ({ thing, line })),
	);
}
