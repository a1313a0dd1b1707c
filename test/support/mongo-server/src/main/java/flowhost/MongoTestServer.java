package flowhost;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A MongoDB-wire server for Flowhost's tests: mongo-java-server's in-memory backend, made
 * usable by the mongodb 7 Node driver and safe under concurrent writers.
 *
 * <pre>
 *   java -jar target/mongo-test-server.jar [port] [--detached]
 * </pre>
 * port 0 (the default) picks a free port. Once listening it prints one line,
 * {@code MONGO_URL=mongodb://127.0.0.1:<port>}, to stdout. It stops on SIGTERM / SIGINT, and
 * also when stdin reaches end-of-file, so a parent that spawns it with a pipe never leaves
 * it behind; {@code --detached} turns the stdin watch off for shells that start it in the
 * background with stdin at /dev/null.
 */
public final class MongoTestServer {

    /**
     * MongoDB 5.0 as the driver sees it. The library's own MONGO_5_0 reports wire version 8,
     * below the minimum (9) of the mongodb 7 Node driver, which then fails every operation
     * with "Topology is closed".
     */
    private static final MongoVersion MONGO_5_0_WIRE_13 = new MongoVersion() {
        @Override
        public List<Integer> getVersionArray() {
            return List.of(5, 0, 0);
        }

        @Override
        public int getWireVersion() {
            return 13;
        }
    };

    private MongoTestServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        // Must be set before the first logger exists: per-connection info lines are noise.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");

        int port = 0;
        boolean detached = false;
        for (String arg : args) {
            if (arg.equals("--detached")) {
                detached = true;
            } else {
                port = Integer.parseInt(arg);
            }
        }

        MemoryBackend memory = new MemoryBackend();
        memory.version(MONGO_5_0_WIRE_13);
        MongoBackend backend = SerializedBackend.wrap(memory);
        MongoServer server = new MongoServer(backend);
        server.bind("127.0.0.1", port);
        InetSocketAddress address = server.getLocalAddress();

        CountDownLatch stopped = new CountDownLatch(1);
        // The JVM runs shutdown hooks on SIGTERM and SIGINT; closing here lets clients see
        // their connections end instead of hanging on a half-dead process.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdownNow();
            stopped.countDown();
        }, "mongo-test-server-shutdown"));

        System.out.println("MONGO_URL=mongodb://127.0.0.1:" + address.getPort());
        System.out.flush();

        if (!detached) {
            Thread watcher = new Thread(() -> {
                waitForEndOfInput(System.in);
                System.exit(0);
            }, "mongo-test-server-stdin");
            watcher.setDaemon(true);
            watcher.start();
        }
        stopped.await();
    }

    private static void waitForEndOfInput(InputStream in) {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) != -1) {
                // Input is ignored; only its end matters.
            }
        } catch (IOException closed) {
            // A broken stdin means the parent is gone: stop as for end-of-file.
        }
    }
}
