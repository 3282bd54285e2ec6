-- CreateTable
CREATE TABLE "LlmCall" (
    "id" TEXT NOT NULL,
    "guildId" TEXT,
    "gameId" TEXT,
    "playerId" TEXT,
    "purpose" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "inputTokens" INTEGER NOT NULL,
    "outputTokens" INTEGER NOT NULL,
    "cachedInputTokens" INTEGER NOT NULL,
    "latencyMs" INTEGER NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "errorKind" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LlmCall_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "LlmCall_guildId_createdAt_idx" ON "LlmCall"("guildId", "createdAt");

-- CreateIndex
CREATE INDEX "LlmCall_gameId_idx" ON "LlmCall"("gameId");
