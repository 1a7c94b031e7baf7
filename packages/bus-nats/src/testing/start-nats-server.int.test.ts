import net from "node:net";
import { expect, it } from "vitest";
import { startNatsServer } from "./start-nats-server.js";

it("starts a real nats-server on loopback and stops it on dispose", async () => {
  let port = 0;
  {
    await using server = await startNatsServer();
    port = server.port;
    expect(server.url).toBe(`nats://127.0.0.1:${port}`);
    const banner = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("data", (data) => {
        socket.destroy();
        resolve(data.toString());
      });
      socket.once("error", reject);
    });
    expect(banner).toMatch(/^INFO .*"jetstream":true/);
  }
  const refused = await new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => resolve(false));
    socket.once("error", () => resolve(true));
  });
  expect(refused).toBe(true);
});
