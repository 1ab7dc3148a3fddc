// The real engine's transport pieces, on their own: what they guarantee whatever the machine's load.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <unistd.h>

#include <csignal>
#include <thread>

#include "sim/real/deadline_sleeper.h"
#include "sim/real/loopback_socket.h"
#include "sim/real/peer_process.h"
#include "sim/real/shaped_link.h"
#include "sim/real/token_bucket.h"

namespace perflab::real {
namespace {

constexpr std::int64_t kMs = 1'000'000;

TEST(DeadlineSleeper, NeverWakesBeforeTheDeadlineAndRecordsHowLate) {
  DeadlineSleeper sleeper;
  for (int i = 0; i < 5; ++i) {
    std::int64_t deadline = monotonic_ns() + 2 * kMs;
    sleeper.sleep_until(deadline);
    EXPECT_GE(monotonic_ns(), deadline);
  }
  sleeper.sleep_until(monotonic_ns() - kMs);  // already passed: no sleep, not counted
  OversleepStats stats = sleeper.stats();
  EXPECT_EQ(stats.sleeps, 5u);
  EXPECT_GE(stats.total_ns, 0);
  EXPECT_GE(stats.max_ns, stats.total_ns / 5);
}

TEST(TokenBucket, WithoutBurstSerializesBackToBackMessages) {
  TokenBucket bucket(1e6, 0);  // 1 MB/s: a byte a microsecond
  EXPECT_EQ(bucket.take(1000, 0), 1'000'000);       // 1000 bytes: 1 ms
  EXPECT_EQ(bucket.take(1000, 0), 2'000'000);       // queued behind the first
  EXPECT_EQ(bucket.take(500, 10 * kMs), 10'500'000);  // idle link: starts at once
}

TEST(TokenBucket, BurstLetsTheFirstBytesThroughAtOnce) {
  TokenBucket bucket(1e6, 2000);
  EXPECT_EQ(bucket.take(1500, 0), 0);
  EXPECT_EQ(bucket.take(1500, 0), 1'000'000);  // 1000 bytes of debt
}

TEST(LoopbackSocket, ListensOnLoopbackOnlyAndCarriesFramesWhole) {
  auto listener = listen_loopback();
  ASSERT_TRUE(listener.ok()) << listener.status().message();
  sockaddr_in address{};
  socklen_t length = sizeof address;
  ASSERT_EQ(getsockname(listener->fd.get(), reinterpret_cast<sockaddr*>(&address), &length), 0);
  EXPECT_EQ(ntohl(address.sin_addr.s_addr), INADDR_LOOPBACK);

  auto client = connect_loopback(listener->port);
  ASSERT_TRUE(client.ok()) << client.status().message();
  auto server = accept_connection(*listener, 5000);
  ASSERT_TRUE(server.ok()) << server.status().message();
  std::string big(3 << 20, 'x');  // larger than the socket buffers: written while the peer reads
  std::thread writer([&] { EXPECT_TRUE(send_frame(client->get(), Frame{7, 42, 99, big}).ok()); });
  auto frame = receive_frame(server->get(), 5000);
  writer.join();
  ASSERT_TRUE(frame.ok()) << frame.status().message();
  ASSERT_TRUE(frame->has_value());
  EXPECT_EQ((*frame)->kind, 7u);
  EXPECT_EQ((*frame)->id, 42u);
  EXPECT_EQ((*frame)->due_ns, 99);
  EXPECT_EQ((*frame)->payload, big);

  client.value().reset();  // a clean close between frames: no frame, no error
  auto end = receive_frame(server->get(), 5000);
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
}

TEST(LoopbackSocket, ASilentPeerIsAnErrorAfterTheIdleTimeout) {
  auto listener = listen_loopback();
  ASSERT_TRUE(listener.ok());
  auto client = connect_loopback(listener->port);
  auto server = accept_connection(*listener, 5000);
  ASSERT_TRUE(server.ok());
  auto frame = receive_frame(server->get(), 50);
  ASSERT_FALSE(frame.ok());
  EXPECT_NE(frame.status().message().find("no data from the peer"), std::string::npos);
}

TEST(LoopbackSocket, NoConnectionIsAnErrorAfterTheTimeout) {
  auto listener = listen_loopback();
  ASSERT_TRUE(listener.ok());
  auto accepted = accept_connection(*listener, 50);
  ASSERT_FALSE(accepted.ok());
  EXPECT_NE(accepted.status().message().find("no connection"), std::string::npos);
}

TEST(ShapedLink, AMessageIsNotSeenBeforeItsLatencyAndTransferTime) {
  auto listener = listen_loopback();
  ASSERT_TRUE(listener.ok());
  auto client = connect_loopback(listener->port);
  auto server = accept_connection(*listener, 5000);
  ASSERT_TRUE(client.ok() && server.ok());
  NetworkSpec network;
  network.latency = Distribution::constant(0.005, Quantity::kDuration);
  network.bandwidth = 1e6;
  DeadlineSleeper sender_sleeper, receiver_sleeper;
  ShapedLink sender(std::move(client).value(), network, Rng(1), sender_sleeper);
  ShapedLink receiver(std::move(server).value(), network, Rng(2), receiver_sleeper);
  std::int64_t sent = monotonic_ns();
  ASSERT_TRUE(sender.send(1, 1, std::string(10'000 - Frame::kHeaderBytes, 'y')).ok());
  auto frame = receiver.receive(5000);
  ASSERT_TRUE(frame.ok() && frame->has_value());
  // 5 ms of latency and 10,000 bytes at 1 MB/s: 15 ms at the earliest.
  EXPECT_GE(monotonic_ns() - sent, 15 * kMs);
  EXPECT_EQ(receiver_sleeper.stats().sleeps, 1u);
}

TEST(PeerProcess, ReportsHowThePeerEnded) {
  auto clean = PeerProcess::spawn("perflab-test", [] { return 0; });
  ASSERT_TRUE(clean.ok());
  EXPECT_TRUE(clean.value().wait(5000).ok());

  auto failing = PeerProcess::spawn("perflab-test", [] { return 3; });
  ASSERT_TRUE(failing.ok());
  EXPECT_EQ(failing.value().wait(5000).message(), "exited with status 3");

  auto killed = PeerProcess::spawn("perflab-test", [] {
    raise(SIGKILL);
    return 0;
  });
  ASSERT_TRUE(killed.ok());
  EXPECT_NE(killed.value().wait(5000).message().find("killed by signal 9"), std::string::npos);
}

TEST(PeerProcess, AHungPeerIsKilledAtTheTimeout) {
  auto hung = PeerProcess::spawn("perflab-test", [] {
    pause();
    return 0;
  });
  ASSERT_TRUE(hung.ok());
  pid_t pid = hung.value().pid();
  EXPECT_NE(hung.value().wait(50).message().find("killed"), std::string::npos);
  EXPECT_NE(kill(pid, 0), 0);  // reaped: no such process
}

}  // namespace
}  // namespace perflab::real
