/** Tests run from TypeScript sources through swc; spawned platform processes run the tsc build in dist/. */
const swc = ["@swc/jest", { jsc: { target: "es2022" } }];
// ES-module-only dependencies (Node loads them with require(); jest's own module system needs them compiled).
const ESM_DEPENDENCIES = ["eld", "@apidevtools/json-schema-ref-parser"];
const transform = { "^.+\\.ts$": swc, [`/node_modules/(${ESM_DEPENDENCIES.join("|")})/.+\\.js$`]: swc };
const common = {
  testEnvironment: "node",
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_DEPENDENCIES.join("|")})/)`],
  moduleFileExtensions: ["ts", "js", "json"],
};

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
