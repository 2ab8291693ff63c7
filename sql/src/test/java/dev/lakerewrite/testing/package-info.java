/**
 * Test fixtures every module's tests share, shipped as lakerewrite-sql's test jar ({@code <type>test-jar</type>,
 * <scope>test</scope>}), so that there is one copy of each:
 *
 * <ul>
 *   <li>{@link dev.lakerewrite.testing.SampleLake}: the WikiDBs sample as a DuckDB lake file, tables named as core
 *       names them, built once per test JVM;
 *   <li>{@link dev.lakerewrite.testing.Sandbox}: a lake file opened the way core hands it to a capability module
 *       (read-only, core's sandbox settings, configuration locked; core's tests check the settings agree);
 *   <li>{@link dev.lakerewrite.testing.ScriptedChatModel}: a chat model that replays a script and records what it
 *       was asked.
 * </ul>
 *
 * <p>A module that uses them declares the test jar and what the fixtures need at test scope (DuckDB's driver,
 * LangChain4j's core for the scripted model): a test jar's own dependencies do not come with it.
 */
package dev.lakerewrite.testing;
