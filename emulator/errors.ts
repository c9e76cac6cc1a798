/** A refusal with the platform's own statusCode (docs/platform.md#status-codes); the server renders it. */
export class PlatformRefusal extends Error {
	constructor(
		readonly statusCode: string,
		readonly statusMsg: string,
	) {
		super(`${statusCode} ${statusMsg}`);
	}
}

export const refuse = (statusCode: string, statusMsg: string): never => {
	throw new PlatformRefusal(statusCode, statusMsg);
};

/**
 * Codes the emulator answers with, and (Chinese-style) messages like the platform's. Most come from
 * docs/platform.md#status-codes; 111183 (used for "main-account operation"), 111199, 111300, 111301 and
 * 112620 are the emulator's own choices where no public code fits (README lists them).
 */
export const CODES = {
	authEmpty: ['111101', '【账号】请求包头Authorization参数为空'],
	authNotBase64: ['111102', '【账号】请求包头Authorization参数Base64解码失败'],
	authMalformed: ['111103', '【账号】请求包头Authorization参数解码后格式有误'],
	authAccountEmpty: ['111104', '【账号】请求包头Authorization参数解码后账户ID为空'],
	authTimestampEmpty: ['111105', '【账号】请求包头Authorization参数解码后时间戳为空'],
	timestampExpired: ['111106', '【账号】请求包头Authorization参数解码后时间戳过期'],
	timestampFuture: ['111106', '【账号】请求包头Authorization参数解码后时间戳超前'],
	accountMismatch: ['111107', '【账号】请求地址Sid参数与请求包头Authorization参数中的账户ID不一致'],
	sigEmpty: ['111108', '【账号】请求地址Sig参数为空'],
	sigMismatch: ['111109', '【账号】请求地址Sig校验失败'],
	tooManyConcurrent: ['111111', '【账号】并发请求数超过限制'],
	timestampFormat: ['111113', '【账号】请求包头Authorization参数解码后时间格式有误'],
	accountNotActivated: ['111138', '【账号】主账户未激活'],
	accountSuspended: ['111139', '【账号】主账户已暂停'],
	accountClosed: ['111140', '【账号】主账户已关闭'],
	accountUnknown: ['111141', '【账号】主账户不存在'],
	balance: ['111142', '【账号】主账户余额不足'],
	subAccountNameTaken: ['111150', '【子账号】子账户名称已存在'],
	subAccountLimit: ['111199', '【子账号】子账户数量已达上限'],
	subAccountClosed: ['111156', '【子账号】子账户已关闭'],
	subAccountUnknown: ['111157', '【子账号】子账户不存在'],
	subAccountNotAllowed: ['111183', '【子账号】子账户无权访问该资源'],
	subAccountOtherApp: ['111184', '【子账号】子账户不属于该应用'],
	appIdEmpty: ['111169', '【应用】应用ID为空'],
	appIdUnknown: ['111170', '【应用】应用不存在'],
	billDateEmpty: ['111190', '【账单】日期为空'],
	billDateFormat: ['111191', '【账单】日期格式有误'],
	billNoRule: ['111211', '【账单】未配置账单规则'],
	startNoInvalid: ['111196', '【子账号】startNo参数有误'],
	offsetInvalid: ['111197', '【子账号】offset参数有误'],
	smsNumbersEmpty: ['112306', '【短信】接收短信的手机号码为空'],
	smsTemplateEmpty: ['112307', '【短信】模板ID为空'],
	smsDataEmpty: ['112308', '【短信】模板短信内容为空'],
	smsTemplateUnknown: ['112311', '【短信】模板不存在'],
	smsTemplateNotNumeric: ['112318', '【短信】模板ID必须为数字'],
	smsTooManyNumbers: ['160048', '【短信】号码数量超过200个'],
	badNumber: ['160042', '号码格式有误'],
	badParameter: ['160031', '参数解析失败'],
	verifyCodeLength: ['108034', '【语音】验证码长度必须为4-8位'],
	playTimes: ['108036', '【语音】播放次数必须为1-3次'],
	callUnknown: ['111300', '【呼叫】呼叫不存在'],
	callNotEnded: ['111301', '【呼叫】呼叫尚未结束'],
	methodNotAllowed: ['112602', 'HTTP方法不支持'],
	noBody: ['112604', 'POST请求包体为空'],
	contentLengthMissing: ['112604', '请求包头Content-Length为空'],
	acceptEmpty: ['112610', '请求包头Accept为空'],
	contentTypeEmpty: ['112611', '请求包头Content-Type为空'],
	formatUnsupported: ['112614', '包体格式不支持'],
	acceptUnsupported: ['112614', '请求包头Accept格式不支持'],
	bodyUnparsable: ['112616', '包体解析失败'],
	notFound: ['112620', '请求地址不存在'],
} as const;

export type CodeName = keyof typeof CODES;

export const fail = (name: CodeName, detail?: string): never =>
	refuse(CODES[name][0], detail ? `${CODES[name][1]}: ${detail}` : CODES[name][1]);
