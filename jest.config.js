/** Tests run from TypeScript sources through swc; spawned platform processes run the tsc build in dist/. */
const transform = { "^.+\\.ts$": ["@swc/jest", { jsc: { target: "es2022" } }] };
const common = { testEnvironment: "node", transform, moduleFileExtensions: ["ts", "js", "json"] };

const slow = { ...common, setupFilesAfterEnv: ["<rootDir>/test/support/slow-timeout.ts"] };

module.exports = {
  roots: ["<rootDir>/test"],
  projects: [
    { ...common, displayName: "unit", testMatch: ["<rootDir>/test/unit/**/*.test.ts"] },
    { ...slow, displayName: "conformance", testMatch: ["<rootDir>/test/conformance/**/*.test.ts"] },
    { ...slow, displayName: "service", testMatch: ["<rootDir>/test/service/**/*.test.ts"] },
    { ...slow, displayName: "e2e", testMatch: ["<rootDir>/test/e2e/**/*.test.ts"] },
  ],
};
