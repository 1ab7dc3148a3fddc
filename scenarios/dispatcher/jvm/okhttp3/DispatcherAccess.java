// The package-private parts of OkHttp 3.13.1's Dispatcher and RealCall that a harness without a network
// needs: finishing a call the recording executor was handed (what AsyncCall.execute() does when its
// response is done), running a synchronous call (what RealCall.execute() does around the network), a
// WebSocket call, and a handed-out call's name. It lives in package okhttp3 only to reach them; it
// changes nothing in the library.
package okhttp3;

public final class DispatcherAccess {
  private DispatcherAccess() {}

  /** Dispatcher.finished(AsyncCall): frees the call's slot, promotes, maybe runs the idle callback. */
  public static void finishedAsync(Dispatcher dispatcher, Runnable handedOut) {
    dispatcher.finished((RealCall.AsyncCall) handedOut);
  }

  /** The RealCall behind a Runnable the Dispatcher handed to its executor. */
  public static Call callOf(Runnable handedOut) {
    return ((RealCall.AsyncCall) handedOut).get();
  }

  /** Dispatcher.executed(RealCall): a synchronous call starts (RealCall.execute() before the network). */
  public static void executed(Dispatcher dispatcher, Call call) {
    dispatcher.executed((RealCall) call);
  }

  /** Dispatcher.finished(RealCall): a synchronous call ends. */
  public static void finishedSync(Dispatcher dispatcher, Call call) {
    dispatcher.finished((RealCall) call);
  }

  /** A call made the way OkHttpClient.newWebSocket makes its call: exempt from the per-host limit. */
  public static Call newWebSocketCall(OkHttpClient client, Request request) {
    return RealCall.newRealCall(client, request, true);
  }
}
