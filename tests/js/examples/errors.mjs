// README section "Errors", run by readme-examples.test.mjs (the emulator answers 455 when asked).
import { ApiError, Client, ValidationError } from "tunesmith";

const client = new Client({ apiKey: process.env.TUNESMITH_API_KEY, baseUrl: process.env.TUNESMITH_BASE_URL });
const attempt = async (request, options) => {
  // README:errors:start
  try {
    return await client.generate(request, options);
  } catch (error) {
    if (error instanceof ValidationError) {
      // Nothing was sent: show the message next to the field it names.
      console.log(`${error.field}: ${error.message}`);
    } else if (error instanceof ApiError && error.kind === "insufficient_credits") {
      console.log("Out of credits: top up, then try again.");
    } else if (error instanceof ApiError && (error.kind === "rate_limited" || error.kind === "maintenance")) {
      console.log(`Busy (${error.kind}) after ${error.attempts} attempts: try again later.`);
    } else {
      throw error; // NetworkError, TimeoutError, AbortError, other ApiError kinds
    }
  }
  // README:errors:end
};

const request = { customMode: false, instrumental: true, model: "V6", prompt: "A calm piano piece", callBackUrl: "https://example.com/callbacks" };
await attempt({ ...request, styleWeight: 2 });
await attempt(request, { headers: { "X-Emulate-Code": "455" }, maxRetries: 1 });
await attempt(request, { headers: { "X-Emulate-Code": "429" } });
