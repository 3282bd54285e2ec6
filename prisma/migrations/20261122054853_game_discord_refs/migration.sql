-- CreateTable
CREATE TABLE "GameDiscordRef" (
    "gameId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "discordId" TEXT NOT NULL,

    CONSTRAINT "GameDiscordRef_pkey" PRIMARY KEY ("gameId","kind")
);

-- AddForeignKey
ALTER TABLE "GameDiscordRef" ADD CONSTRAINT "GameDiscordRef_gameId_fkey" FOREIGN KEY ("gameId") REFERENCES "Game"("id") ON DELETE CASCADE ON UPDATE CASCADE;
