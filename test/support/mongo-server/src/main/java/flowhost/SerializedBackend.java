package flowhost;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.bson.Document;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Wraps a {@link MongoBackend} so that every call runs under one lock and nothing it returns
 * shares memory with the stored data.
 *
 * Why: the backends answer with references to their stored documents, and the reply is
 * encoded on the network thread after the call returns. Two concurrent
 * findOneAndUpdate($inc) callers could then both encode the document after the second
 * update, i.e. read the same sequence number. Serialising the calls makes every command
 * atomic; deep-copying the reply freezes what that command saw.
 */
final class SerializedBackend implements InvocationHandler {

    private final MongoBackend target;
    private final Object lock = new Object();

    private SerializedBackend(MongoBackend target) {
        this.target = target;
    }

    static MongoBackend wrap(MongoBackend target) {
        return (MongoBackend) Proxy.newProxyInstance(
                MongoBackend.class.getClassLoader(),
                new Class<?>[] {MongoBackend.class},
                new SerializedBackend(target));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        synchronized (lock) {
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            // version(...) returns the backend itself; hand out the wrapper instead so no
            // caller can slip past the lock.
            if (result == target) {
                return proxy;
            }
            return detach(result);
        }
    }

    private static Object detach(Object result) {
        if (result instanceof Document document) {
            return document.cloneDeeply();
        }
        if (result instanceof QueryResult queryResult) {
            return new QueryResult(copyAll(queryResult), queryResult.getCursorId());
        }
        if (result instanceof Collection<?> collection) {
            List<Object> copies = new ArrayList<>(collection.size());
            for (Object item : collection) {
                copies.add(item instanceof Document document ? document.cloneDeeply() : item);
            }
            return copies;
        }
        return result;
    }

    private static List<Document> copyAll(Iterable<Document> documents) {
        List<Document> copies = new ArrayList<>();
        for (Document document : documents) {
            copies.add(document.cloneDeeply());
        }
        return copies;
    }
}
