// The companion inside an Express app, mounted under /tunesmith: `node server.js`.
import express from "express";
import { createCompanion, toNodeListener } from "tunesmith/server";

const port = Number(process.env.PORT ?? 3000);

const companion = createCompanion({
  apiKey: process.env.TUNESMITH_API_KEY,
  baseUrl: process.env.TUNESMITH_BASE_URL, // omit both URLs for the real service
  uploadUrl: process.env.TUNESMITH_UPLOAD_URL,
  publicUrl: process.env.PUBLIC_URL ?? `http://localhost:${port}/tunesmith`,
  // Your own session check: the caller's user id, or null for a 401. This one knows one token.
  authorize: (request) => {
    const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
    return token && token === process.env.DEMO_SESSION ? "demo-user" : null;
  },
  allow: ["uploadFile", "uploadBase64", "generate", "addInstrumental", "getTask"],
});

// README:deploy-express:start
const app = express();
// Before any body parser: the companion reads the bodies itself (uploads stream through).
app.use("/tunesmith", toNodeListener(companion));
app.use(express.json());
// README:deploy-express:end
app.get("/", (req, res) => res.send("the rest of your app"));

app.listen(port, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${port}`));
