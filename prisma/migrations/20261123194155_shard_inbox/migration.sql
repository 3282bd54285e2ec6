-- CreateTable
CREATE TABLE "ShardInbox" (
    "id" BIGSERIAL NOT NULL,
    "shard" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShardInbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ShardInbox_shard_id_idx" ON "ShardInbox"("shard", "id");

-- CreateIndex
CREATE INDEX "ShardInbox_createdAt_idx" ON "ShardInbox"("createdAt");
