// An ExecutorService that records the calls the Dispatcher hands it and never runs them (the PR's
// benchmark and OkHttp's DispatcherTest use one); while `rejecting` is set it refuses them, as a shut-down
// executor does.
package perflab.dispatcher;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

final class RecordingExecutor extends AbstractExecutorService {
  boolean rejecting = false;
  private List<Runnable> calls = new ArrayList<>();

  @Override public void execute(Runnable call) {
    if (rejecting) throw new RejectedExecutionException("executor is shut down");
    calls.add(call);
  }

  /** The calls handed out since the last take, in order. */
  List<Runnable> take() {
    List<Runnable> taken = calls;
    calls = new ArrayList<>();
    return taken;
  }

  int size() {
    return calls.size();
  }

  @Override public void shutdown() {}

  @Override public List<Runnable> shutdownNow() {
    return Collections.emptyList();
  }

  @Override public boolean isShutdown() {
    return false;
  }

  @Override public boolean isTerminated() {
    return false;
  }

  @Override public boolean awaitTermination(long timeout, TimeUnit unit) {
    return false;
  }
}
